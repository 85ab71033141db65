"""Task table for operation search, the third table in the format of ``search_lexicon_cues``: for
the tasks people most often hand an assistant in each domain (approving or landing a pull request,
re-running a build, moving a ticket on, logging time, scaling or draining, refunding, changing a
plan, resending an invoice), combinations of two or three everyday words that catch the many ways
people put those tasks, tersely, chattily, indirectly, in slang or in plain non-native phrasing
("land" with "pr" for a merge, "duration" with "ticket" for a worklog, "bounce" with "pod" for a
delete, "charge" with "back" for a dispute, "cancel" with "themselves" for a billing portal), and
point them at the API terms that name the operation. Cue words may be the words values become
before matching ("ticket", "someone", "repo", "version", "money", "url", "duration", "image").
Each line reads ``cue + cue[ + cue]: meant meant*weight ...`` exactly as in the first two tables:
cue words are written in their base form (irregular forms such as "broke", "went", "lost" or
"paid" as such) and match in any order and any inflection; meant words are API terms as APIs name
things, ``_`` joining words that must occur together, with an optional weight below 1.0 for a
weaker hint. No cue set repeats one of the first two tables. The rules were written from general
knowledge of how people phrase everyday tasks, not from any particular API's operations and not
from any test or benchmark phrasing.
"""

TASKS = """
# Code hosting and review: approving, reviewers, merging, comparing, access, releases
approve + pull: review review_event*0.8
approve + merge + request: review approval*0.8
request + change + pr: review review_event*0.8
request + change + pull: review review_event*0.8
look + good + pr: review review_event*0.7
pair + eye: review_request*0.8 requested_reviewer*0.8
tag + someone + pr: requested_reviewer*0.8 review_request*0.7
remove + someone + review: requested_reviewer review_request*0.8
review + queue: review_request*0.8 requested_reviewer*0.8
squash + merge: merge merge_method*0.8
land + pr: merge
land + pull: merge
ready + merge: mergeable*0.8 merge*0.7
out + draft + pr: ready_for_review draft*0.6
mark + ready + review: ready_for_review
raise + pr: pull_request create*0.6
propose + change: pull_request*0.8
suggest + change: suggestion review_comment*0.8
inline + comment: review_comment*0.9
resolve + thread: review_thread*0.8 resolve*0.7
commit + between: compare comparison*0.9
commit + since: compare*0.8 commits*0.7
new + since + version: compare*0.9 comparison*0.8 release*0.5
ahead + main: compare comparison*0.8
behind + main: compare comparison*0.8
branch + differ: compare comparison*0.9
history + file: commits*0.7 revision*0.7 blame*0.5
cherry + pick: cherry_pick commit*0.7
undo + commit: revert*0.9
grep + code: search_code code_search*0.9
find + code + repo: search_code code_search*0.9
file + content: contents*0.9 blob*0.6
edit + file + repo: contents create_or_update_file*0.8
add + someone + repo: collaborator invitation*0.8
invite + someone + repo: collaborator invitation*0.9
remove + someone + repo: collaborator*0.9 permission*0.6
let + someone + push: collaborator permission*0.8
commit + access: collaborator permission*0.8
lock + down + branch: branch_protection protection*0.8
protect + main: branch_protection protection*0.8
push + directly: branch_protection*0.9 restrictions*0.6
require + pr: branch_protection required_pull_request_reviews*0.8
require + ci: branch_protection*0.8 required_status_checks*0.9
ci + status: status*0.8 check_run*0.8 combined_status*0.7
ci + fail: check_run*0.8 run*0.8 log*0.7
broke + build: log*0.8 job*0.7 run*0.7
report + bug: issue*0.9 create*0.6
move + issue + repo: transfer*0.9
own + copy + repo: fork*0.9
update + fork: merge_upstream sync*0.8
repo + private: visibility*0.9 private*0.7
ship + version: release*0.9 tag*0.6 fix_version*0.5
version + out + yet: release*0.9 tag*0.6
release + version: release*0.8 project_version*0.8 tag*0.5
binary + release: release_asset asset*0.9 release*0.7
listen + event: webhook webhook_endpoint*0.8 event*0.6
send + event + url: webhook webhook_endpoint*0.8
add + someone + org: membership member*0.8 invitation*0.8
security + alert: dependabot_alert code_scanning_alert*0.8 secret_scanning_alert*0.7

# CI/CD: re-running, dispatching, cancelling, secrets, deploying
re + run: rerun retry*0.8
restart + job: rerun*0.9 retry*0.8
retry + pipeline: rerun retry*0.9
retry + workflow: rerun retry*0.9
build + again: rerun*0.8 trigger*0.6
trigger + workflow: workflow_dispatch dispatch*0.9
start + workflow: workflow_dispatch dispatch*0.9
start + pipeline: trigger*0.8 dispatch*0.7 run*0.6
stop + workflow: cancel
stop + job: cancel*0.9
kill + build: cancel
abort + pipeline: cancel
ci + credential: secret*0.9 variable*0.5
token + workflow: secret*0.8
env + var: variable env*0.8
deploy + prod: deployment environment*0.8
ship + prod: deployment*0.8 environment*0.7
live + prod: deployment*0.9 status*0.6
promote + staging: deployment*0.8 environment*0.7
go + back + version: rollback*0.9 revision*0.8
slow + build: timing*0.8 job*0.7 log*0.6
turn + off + workflow: disable*0.9

# Issue and project tracking: creating, fields, transitions, assignees, time, watchers, links
raise + ticket: issue create*0.7
what + field + need: create_meta*0.9 createmeta*0.8
require + field: create_meta*0.9 createmeta*0.8 required*0.6
what + issue + type: issue_type create_meta*0.8
allow + value: allowed_values create_meta*0.8 edit_meta*0.7
field + can + edit: edit_meta editmeta*0.9
move + progress: transition status*0.6
start + ticket: transition*0.8
resolve + ticket: transition*0.9 resolution*0.7
move + ticket + review: transition*0.9
duplicate + bug: resolution*0.8 issue_link*0.8 link*0.6
reassign + ticket: assign assignee*0.9
reassign + someone: assign assignee*0.9
unassign + ticket: assignee*0.9 assign*0.8
put + someone + ticket: assignee assign*0.9
claim + ticket: assign*0.8 assignee*0.8
who + handle: assignee*0.9 owner*0.7
log + duration: worklog time_tracking*0.7
spent + duration: worklog time_spent*0.8
duration + ticket: worklog*0.8 time_tracking*0.7 original_estimate*0.5
fill + timesheet: worklog time_entry*0.9
billable + hour: time_entry billable*0.9 worklog*0.7
watch + ticket: watcher subscribe*0.7
notify + me + ticket: watcher*0.9 notify*0.6
cc + someone: watcher*0.8 cc*0.8
who + follow: watcher*0.9 follower*0.8
upvote + ticket: vote reaction*0.7
many + people + want: vote votes*0.8
link + ticket: issue_link link*0.9
block + ticket: issue_link blocked_by*0.9 link*0.8
parent + ticket: parent*0.9 subtask*0.7
child + ticket: subtask*0.9 parent*0.7
link + pr + ticket: remote_link development*0.7
url + ticket: remote_link*0.8 web_link*0.7
note + ticket: comment*0.9
reply + ticket: comment*0.9 reply*0.7
mention + someone + ticket: comment*0.8 mention*0.8
attach + log: attachment*0.9
upload + ticket: attachment*0.9
categorize + ticket: label*0.8 component*0.8
version + ticket: fix_version version*0.8
ship + in + version: fix_version*0.9 release*0.6
affect + version: affected_version versions*0.8
version + project: project_version*0.9 version*0.8
belong + epic: parent epic*0.9
top + backlog: rank*0.9
urgent + ticket: priority*0.9
query + ticket: jql search*0.9
my + open + ticket: jql*0.8 search*0.8 assignee*0.7
nudge + someone: notify*0.8 reminder*0.7
ticket + history: changelog history*0.9
add + someone + project: project_role actor*0.8 role*0.7 member*0.6
deadline + ticket: due_date duedate*0.8
set + deadline: due_date*0.9 due_on*0.8
point + ticket: story_points estimate*0.8
sub + task: subtask
copy + ticket: clone*0.9
someone + account + id: user user_search*0.8 account_id*0.8
look + up + someone: user*0.9 user_search*0.7 profile*0.6

# Kubernetes: scaling, disruption, nodes, traffic, access, quotas, config, rollouts, debugging
bump + replica: scale replicas*0.9
more + replica: scale replicas*0.8
zero + replica: scale*0.9 replicas*0.8
turn + off + deployment: scale*0.8 replicas*0.7
many + copy: replicas*0.8 scale*0.8
traffic + spike: autoscaler*0.8 horizontal_pod_autoscaler*0.7
scale + cpu: horizontal_pod_autoscaler*0.9 autoscaler*0.9
more + pod + traffic: horizontal_pod_autoscaler*0.9 autoscaler*0.9
drain + survive: pod_disruption_budget*0.9
voluntary + disruption: pod_disruption_budget
move + pod + off: eviction*0.9
empty + node: eviction*0.9 unschedulable*0.7
take + node + out: unschedulable*0.9 eviction*0.7
uncordon + node: unschedulable node*0.9
restrict + traffic: network_policy*0.9 firewall*0.6
allow + traffic + from: network_policy*0.9 firewall*0.6 security_group*0.6
lock + down + namespace: network_policy*0.8 role_binding*0.6
traffic + between + namespace: network_policy
read + only + namespace: role_binding role*0.8
access + namespace: role_binding role*0.8
cluster + admin: cluster_role_binding cluster_role*0.8 role_binding*0.7
permit + to: self_subject_access_review*0.8 permission*0.8 access_review*0.7
limit + namespace: resource_quota*0.9 limit_range*0.7
namespace + budget: resource_quota*0.9
max + pod + namespace: resource_quota*0.9
default + cpu: limit_range*0.9
container + without + limit: limit_range*0.9
password + pod: secret*0.9
cert + ingress: secret*0.8 tls*0.8 ingress*0.7
config + file + pod: config_map
mount + config: config_map volume*0.7
expose + app: service ingress*0.7
internal + dns: service*0.9
outside + cluster: ingress service*0.8 load_balancer*0.6
expose + http: ingress*0.9 service*0.6
kube + version: code_version version*0.9
api + server + version: code_version
node + capacity: node capacity*0.8 allocatable*0.7
node + ready: condition*0.8 node status*0.7
tail + log: log follow*0.8
log + before + crash: log previous*0.8
bounce + pod: delete*0.8 pod*0.6
kill + pod: delete*0.9
redeploy + app: rollout restart*0.8 deployment*0.6
deploy + image: deployment rollout*0.7 image*0.6
run + image: pod deployment*0.8
run + script + once: job*0.9
every + hour: schedule cron*0.8 cron_job*0.7
suspend + cron: cron_job suspend*0.8
database + kubernetes: stateful_set*0.8 persistent_volume_claim*0.7
persistent + storage: persistent_volume_claim persistent_volume*0.8
debug + container: exec ephemeral_container*0.8
inside + container: exec*0.9
localhost + pod: port_forward
restart + hang: liveness_probe*0.9
gpu + node: node_selector*0.8 toleration*0.7 affinity*0.6
run + specific + node: node_selector affinity*0.8
not + same + node: anti_affinity affinity*0.8
important + pod: priority_class*0.8
what + wrong + pod: event*0.9 log*0.7 status*0.7
top + pod: metrics usage*0.8
most + memory: metrics usage*0.9
private + registry: image_pull_secret*0.9 registry*0.7
custom + resource: custom_resource_definition custom_object*0.9
pod + belong: owner_references*0.8 replica_set*0.6

# Payments: refunds, disputes, captures, cards, charges, declines, balances, payouts, sellers
charge + back: dispute*0.9 chargeback*0.8
half + back: refund*0.9
pay + back: refund*0.8
charge + twice: refund*0.8 duplicate*0.6
overcharge + customer: refund
cancel + charge: refund*0.8 void*0.7 cancel*0.7
finalize + payment: capture*0.9 confirm*0.7
charge + when + ship: capture capture_method*0.8
charge + later: capture_method*0.9 authorize*0.7 setup_intent*0.6 off_session*0.6
pre + auth: authorize authorization capture_method*0.8
hold + fund: authorize authorization*0.9
contest + charge: dispute*0.9 evidence*0.8
proof + delivery: evidence dispute*0.8
dispute + due: evidence_details*0.8 due_by*0.8
lost + dispute: status*0.9 outcome*0.6 dispute*0.7
customer + someone: customer*0.9 search*0.7
vat + number: tax_id*0.9
add + card: payment_method*0.8 setup_intent*0.7 attach*0.6
change + card: payment_method*0.8 default_payment_method*0.8
default + card: default_payment_method*0.9 invoice_settings*0.7
remove + card: payment_method*0.8 detach*0.8
save + card: payment_method setup_intent*0.8
direct + debit: mandate payment_method*0.8 sepa_debit*0.7
charge + card: payment_intent charge*0.9
charge + customer: payment_intent charge*0.9 invoice_item*0.5
charge + someone: payment_intent charge*0.8 customer*0.6
take + payment: payment_intent charge*0.8
customer + not + present: off_session*0.9
payment + went + through: status*0.9 payment_intent*0.8 charge*0.7
payment + clear: status*0.8 balance_transaction*0.7 available_on*0.7
insufficient + fund: decline_code failure_code*0.8
why + decline: decline_code*0.8 outcome*0.7
risk + score: outcome risk_score*0.9 risk_level*0.7
payment + flag: review*0.8 risk*0.7 outcome*0.6
fund + available: balance available*0.7
cash + out: payout*0.9
bank + deposit: payout*0.9
when + deposit: payout*0.9 arrival_date*0.8
weekly + payout: payout_schedule*0.8
payout + include: balance_transaction*0.9
process + fee: fee balance_transaction*0.8
after + fee: balance_transaction net*0.8 fee*0.7
total + revenue: balance_transaction*0.8 revenue*0.8 report*0.7
export + transaction: balance_transaction report_run*0.8 export*0.7
commission + take: application_fee
onboard + merchant: account_link connected_account account*0.7
seller + dashboard: login_link*0.9
missing + info + account: requirements*0.9 currently_due*0.7
account + restrict: requirements*0.7 disabled_reason*0.7
take + back + transfer: transfer_reversal reversal*0.9
top + up + balance: topup top_up*0.8

# Billing: invoices, one-off charges, subscriptions, plans, trials, prices, checkout, coupons
email + invoice: send*0.9 invoice*0.8
lock + invoice: finalize*0.9
pdf + invoice: invoice_pdf invoice*0.8
send + receipt: receipt_email receipt_url*0.8
link + invoice: hosted_invoice_url*0.9 invoice*0.7
invoice + unpaid: status*0.9 past_due*0.8 invoice
cancel + invoice: void*0.9
adjust + invoice: credit_note*0.8
memo + invoice: description footer*0.8 memo*0.8
send + bill: invoice send*0.8
bill + someone: invoice payment_intent*0.7
charge + extra: invoice_item*0.9
one + time + fee: invoice_item*0.9
setup + fee: invoice_item*0.8 add_invoice_items*0.8
subscribe + customer: subscription*0.8
sign + up + plan: subscription*0.9
switch + plan: subscription_item price*0.8 proration*0.7 subscription*0.7
change + plan: subscription_item price*0.8 proration*0.7 subscription*0.8
annual + plan: interval price*0.8 recurring*0.7
cancel + end: cancel_at_period_end*0.9
auto + renew: cancel_at_period_end auto_renew
reactivate + subscription: resume cancel_at_period_end*0.7
undo + cancel: cancel_at_period_end*0.8 resume*0.8
pause + subscription: pause_collection pause*0.8
skip + month: pause_collection*0.8
extend + trial: trial_end*0.9
trial + without + card: payment_method_collection*0.8 trial_settings*0.7
more + license: quantity*0.9 subscription_item*0.7
bill + date: billing_cycle_anchor*0.8 current_period_end*0.6
renew + date: current_period_end
plan + next + month: subscription_schedule*0.8
volume + discount: tiers*0.8 tiers_mode*0.7 price*0.6
different + currency: currency_options*0.8 price*0.7
buy + button: payment_link*0.9 checkout*0.7
pay + url: payment_link*0.9 checkout_session*0.7 hosted_invoice_url*0.6
redirect + after + pay: success_url*0.9 after_completion*0.8
cancel + themselves: billing_portal*0.8
percent + off: coupon percent_off*0.9
voucher + code: promotion_code coupon*0.8
coupon + expire: redeem_by*0.9 expires_at*0.8
record + usage: usage_record meter_event*0.8
track + usage: usage_record*0.8 meter_event*0.8 usage*0.6
overage + charge: metered usage_record*0.7 tiers*0.6
charge + vat: tax_rate automatic_tax*0.8
calculate + tax: tax_calculation automatic_tax*0.8
goodwill + credit: customer_balance*0.8 credit_note*0.8

# Messaging and chat
post + channel: message chat_post_message*0.8
ping + someone: message*0.8 direct_message*0.7 mention*0.6
react + message: reaction
share + file + channel: file upload*0.8
add + someone + channel: invite member*0.8
respond + thread: thread reply*0.9 thread_ts*0.7
deliver + receipt: status*0.8 delivery_status*0.8

# CRM and support desks
log + meeting: engagement activity*0.8 meeting*0.7
deal + value: amount deal*0.7
forecast + quarter: forecast*0.9 deal*0.6 close_date*0.6
contact + company + link: association*0.9
hot + lead: lead_score*0.8 lead*0.7
qualify + lead: lead status*0.8 lifecycle_stage*0.7
snooze + ticket: snooze on_hold*0.7
first + response: first_reply_time sla*0.8
ticket + breach: sla*0.9 sla_policy*0.7
customer + rating: satisfaction_rating csat*0.8
side + conversation: side_conversation*0.9

# E-commerce
ship + part: fulfillment*0.9 fulfillment_order*0.7
split + shipment: fulfillment_order*0.8 fulfillment*0.8
tracking + number: tracking_number tracking*0.8 fulfillment*0.7
product + photo: product_image image*0.8 media*0.8
product + picture: product_image image*0.8 media*0.8
stock + warehouse: inventory_level location*0.8
move + stock: inventory_level inventory_transfer*0.8
mark + paid: mark_as_paid paid_out_of_band*0.8 pay*0.7
return + label: return shipping_label*0.8
best + seller: report*0.8 product*0.7 sales*0.7

# Identity and access
reset + mfa: reset_factors factor*0.8
password + expire: password_policy expire_password*0.8
force + password + change: expire_password*0.9 password_policy*0.6
invite + someone: invitation*0.9 invite*0.8
resend + invite: invitation*0.9 resend*0.8
reactivate + user: activate*0.9 unsuspend*0.8
who + admin: role_assignment*0.8 admin*0.8
confirm + email: email_verification verification*0.8 verify_email*0.7
session + expire: session_lifetime idle_timeout*0.8
stay + log + in: session_lifetime*0.8 refresh_token*0.7
auto + add + group: group_rule*0.9 membership*0.6
dynamic + group: group_rule*0.8 membership_rule*0.8

# Monitoring and incidents
ack + alert: acknowledge*0.9
snooze + alert: mute*0.9 snooze*0.8 downtime*0.7
alert + cpu: monitor*0.8 threshold*0.7
uptime + percent: slo*0.8 uptime*0.8 sla*0.7
error + budget: slo*0.9 error_budget*0.9
graph + metric: timeseries query*0.8 metrics*0.7
incident + timeline: timeline log_entries*0.8
escalate + manager: escalation escalation_policy*0.8

# Everyday phrasings seen missed in newapi4 (Box, Keycloak), written as general rules of the
# words, not of those APIs' operations; Bitbucket and LaunchDarkly of that set measure them unseen
send + again: resend redeliver*0.7
ping + again: resend*0.9 reminder*0.7
remind + again: resend*0.9 reminder*0.8
lock + out + user: brute_force*0.8 unlock*0.8 lockout*0.8
mail + server: smtp*0.9 email_server*0.8
preview + image: thumbnail*0.9 preview*0.7
small + image: thumbnail*0.8
public + url: shared_link*0.8 public_link*0.8
keep + year: retention*0.8 retention_policy*0.8
keep + then + delete: retention retention_policy*0.9
auto + delete: retention*0.7 lifecycle*0.7 expiration*0.6
approve + domain: allowlist*0.8 whitelist*0.8 allowed_domain*0.8
sensitivity + label: classification*0.9 security_classification*0.8
previous + save: version*0.9 revision*0.7
bookmark + url: web_link*0.9 link*0.6
behalf + allow: consent grant*0.7
log + in + as: impersonation*0.9 impersonate*0.9
boot + out: logout session*0.6 remove*0.5
"""
