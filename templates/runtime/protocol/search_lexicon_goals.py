"""Goal table for operation search, the second table in the format of ``search_lexicon_cues``:
combinations of two or three everyday words that, appearing together anywhere in a request,
reveal the API object or action behind a goal the user states in their own words. It adds the
other phrasings people use for goals the first table states once ("scale" with "load" for an
autoscaler, "quota" with "remaining" for a rate limit), goals stated as outcomes or policies
("nobody" with "push" for branch protection, "least" with "stay" and "up" for a disruption
budget), questions about state ("live" with "yet", "owe" with "us", "stuck" with "deploy"), and
values or units that name a domain together with a word ("cpu" with "limit", "port" with
"expose"). Each line reads ``cue + cue[ + cue]: meant meant*weight ...`` exactly as in the first
table: cue words are written in their base form (irregular forms such as "paid", "sold", "won"
or "lost" as such) and match in any order and any inflection; meant words are API terms as APIs
name things, ``_`` joining words that must occur together, with an optional weight below 1.0 for
a weaker hint. No cue set repeats one of the first table. The rules were written from general
knowledge of how people phrase goals across many domains, not from any particular API's
operations and not from any test or benchmark phrasing; only the last section (frequent tasks)
was added later from the misses of the first blind phrasing sets, as its header says.
"""

GOALS = """
# 1. Other phrasings of goals: code hosting and review
commit + ahead: compare comparison*0.9
branch + diverge: compare comparison*0.9 merge_base*0.7
who + last + touch: blame*0.8 commit*0.7
get + eye: review_request*0.8 reviewer*0.7
need + review: review_request*0.9 requested_reviewer*0.8 reviewer*0.7
sign + off + change: review*0.8 approval*0.8
ci + pass: status*0.9 check_run*0.9 check_suite*0.7
new + owner + repo: transfer*0.9
read + only + repo: archive archived*0.9
cut + release: release tag*0.6
commit + password: secret_scanning*0.9 secret_scanning_alert*0.8
token + expose + code: secret_scanning secret_scanning_alert*0.8
known + cve: vulnerability advisory*0.8 dependabot_alert*0.7

# 1. Other phrasings: CI/CD
build + break: log*0.8 job*0.7 run*0.7
pipeline + red: run*0.8 job*0.7 log*0.7 status*0.6
retry + job: rerun retry*0.9
flaky + test: rerun*0.8 retry*0.7 job*0.5
restart + build: rerun retry*0.8
fire + off: trigger dispatch*0.8
manual + run: workflow_dispatch dispatch*0.9 trigger*0.8
credential + workflow: secret*0.9 variable*0.6
sign + off + deploy: pending_deployment approval deployment_review*0.8
revert + deploy: rollback revert*0.8 revision*0.6
abort + build: cancel
kill + job: cancel
wait + runner: queued runner*0.8 pending*0.7
build + agent: runner agent*0.9

# 1. Other phrasings: issue and project tracking
who + responsible: assignee owner*0.8
take + ticket: assign*0.8 assignee*0.8
time + spent: worklog time_spent*0.9
record + time: time_entry worklog*0.9
close + ticket: close*0.9 transition*0.8 resolve*0.7
blocker + ticket: blocked_by dependency*0.8 link*0.7
must + finish + first: dependency*0.8 blocked_by*0.8
split + story: subtask*0.9 child*0.7
how + big + task: estimate story_points*0.8
stay + loop: watcher*0.8 subscribe*0.8 subscription*0.7
miss + deadline: overdue due_date*0.7
bug + back: reopen*0.8
who + file + bug: reporter creator*0.8
next + sprint: sprint iteration*0.8 milestone*0.6

# 1. Other phrasings: Kubernetes and containers
scale + load: autoscaler horizontal_pod_autoscaler*0.8 autoscale*0.9
more + pod + busy: autoscaler horizontal_pod_autoscaler*0.8
public + url + app: ingress service*0.7
ssh + container: exec
tunnel + pod: port_forward portforward*0.9
crash + loop: log event*0.8 restart_count*0.7
oom + kill: event*0.8 last_state*0.8 resources*0.7
drain + node: eviction cordon*0.8 unschedulable*0.8
dedicated + node: taint toleration*0.8 node_selector*0.7
pin + pod + node: node_selector affinity*0.8 node_name*0.7
different + zone: topology_spread_constraints*0.8 anti_affinity*0.7
memory + use + pod: metrics usage*0.9
isolate + namespace: network_policy
let + user + namespace: role_binding role*0.8
am + allowed: self_subject_access_review access_review*0.8 permission*0.8
agent + each + node: daemon_set
restart + all + pod: rollout restart*0.8 deployment*0.7
slow + start + container: startup_probe*0.9 readiness_probe*0.6
registry + credential: image_pull_secret secret*0.7
namespace + stuck: finalizer*0.8 status*0.6

# 1. Other phrasings: cloud compute, storage, networking, DNS
launch + vm: instance create*0.7
shut + down + vm: stop instance*0.8 power_off*0.8
more + ram + server: resize instance_type*0.8 machine_type*0.8
startup + script: user_data startup_script
restore + from + backup: restore backup*0.8 snapshot*0.7
permanent + ip: static_ip elastic_ip reserved_ip*0.8
vpn + tunnel: vpn_connection vpn*0.9 tunnel*0.7
balance + traffic: load_balancer
failed + message + queue: dead_letter_queue*0.9
poison + message: dead_letter_queue*0.9
subdomain + point: dns_record record*0.8
share + file + expire: signed_url presigned_url shared_link*0.8
auto + delete + object: lifecycle lifecycle_rule*0.9
recover + overwrite: versioning*0.9 revision*0.7 version*0.7

# 1. Other phrasings: cloud identity, access and cost
assign + role: role_assignment role_binding*0.8 role*0.7
short + live + credential: sts session_token*0.8 assume_role*0.8
cloud + bill: cost billing*0.9 spend*0.8
cost + break + down: cost*0.9 cost_breakdown*0.8 usage*0.6

# 1. Other phrasings: payments
capture + later: capture_method*0.9 authorize*0.8
place + hold: authorize authorization*0.8 hold*0.7
drop + hold: cancel*0.8 void*0.8
reimburse + customer: refund
undo + charge: refund*0.9 void*0.7
reverse + charge: refund reversal*0.8
respond + chargeback: evidence dispute*0.8 submit*0.6
give + up + dispute: close*0.9 accept*0.8 dispute*0.7
suspicious + payment: risk*0.8 early_fraud_warning*0.7 review*0.6
card + decline: decline_code failure_code*0.9 outcome*0.7 last_payment_error*0.7
withdraw + fund: payout*0.9
reconcile + bank: reconciliation balance_transaction payout*0.8
id + document + check: verification_session identity_verification*0.9 kyc*0.7

# 1. Other phrasings: billing
preview + invoice: upcoming_invoice upcoming*0.9 invoice_preview*0.8
outstanding + balance: amount_due invoice*0.8 balance*0.7
customer + manage + subscription: billing_portal billing_portal_session*0.9
store + card: setup_intent payment_method*0.9
promo + code: promotion_code coupon*0.8
try + before + pay: trial trial_period_days*0.8
monthly + plan: subscription price*0.8 plan*0.8
not + renew: cancel_at_period_end auto_renew*0.8
suspend + subscription: pause_collection*0.9 pause*0.8
downgrade + plan: subscription_item price*0.8 proration*0.7
partial + month: proration*0.9
bill + usage: usage_record metered*0.8 meter*0.8
chase + payment: send reminder*0.8 dunning*0.8
late + payment: dunning*0.8 past_due*0.8 overdue*0.7
paid + cash: paid_out_of_band pay*0.8
bad + debt: mark_uncollectible uncollectible*0.9
wrong + invoice: void credit_note*0.8
churn + reason: cancellation_details cancellation_reason*0.8 feedback*0.6

# 1. Other phrasings: messaging, email and SMS
message + user + directly: direct_message dm*0.9 im*0.7
who + join + channel: member channel_members*0.8
fix + typo + message: update edit*0.8
deliver + later: scheduled_message send_at*0.8 schedule*0.7
mute + notification: dnd snooze*0.8 mute*0.8
past + message: history conversation_history*0.9 search_messages*0.6
miss + message: unread history*0.6 notification*0.7
text + customer: sms*0.9 message*0.7
sms + code: otp verification*0.9
reply + stop: opt_out unsubscribe*0.8
email + bounce: bounce suppression*0.8
newsletter + subscriber: list audience*0.8 contact_list*0.8 subscriber*0.8
email + go + spam: domain_authentication*0.8 dkim*0.7 spam_report*0.6

# 1. Other phrasings: CRM and support desks
deal + won: stage*0.9 closed_won*0.8 deal*0.8
lost + deal: stage*0.9 closed_lost*0.8 deal*0.8
advance + deal: stage deal_stage*0.8
lead + become + customer: convert lead_convert*0.8
note + call: engagement*0.8 activity*0.8 note*0.7
account + manager: owner*0.9
duplicate + contact: merge duplicate*0.8
nurture + email: sequence campaign*0.8 automation*0.7
web + form + submit: form_submission submission*0.9
pause + ticket: on_hold hold*0.9 status*0.6
await + customer: pending status*0.8
save + reply: macro saved_reply*0.9 template*0.7
automatic + response: trigger automation*0.8 auto_reply*0.8
escalate + ticket: escalation group*0.7 priority*0.6 assign*0.6
customer + satisfaction: satisfaction_rating csat*0.9 survey*0.6
hide + from + customer: internal_note*0.9 private*0.8
combine + ticket: merge*0.9

# 1. Other phrasings: e-commerce
send + out + order: fulfillment fulfill*0.9
mark + ship: fulfillment fulfill*0.9
track + package: tracking shipment*0.8 fulfillment*0.7
print + label: shipping_label*0.9 label*0.6
restock + item: inventory_level inventory adjust*0.7
sold + out: inventory inventory_level*0.8
sale + price: compare_at_price*0.8 price*0.7
free + ship: discount*0.9 price_rule*0.8 shipping_rate*0.6
abandon + cart: abandoned_checkout checkout*0.8
exchange + item: exchange*0.9 return*0.8
change + order + address: order_edit*0.8 shipping_address*0.8 update*0.6
suspicious + order: risk order_risk*0.9
take + down + product: unpublish status*0.8 draft*0.6

# 1. Other phrasings: identity and access
extra + security + login: mfa factor*0.8
new + phone + authenticator: reset_factors factor*0.8 mfa*0.7
kill + session: revoke session*0.9
force + logout: session revoke logout*0.8
login + history: sign_in login*0.9 audit_log*0.8 system_log*0.7
brute + force: failed_login lockout*0.8 attack_protection*0.7
employee + leave: deactivate suspend*0.8 offboard*0.8
new + employee: user onboard*0.8 provision*0.7
add + to + group: membership member group*0.7
give + access + app: app_assignment assignment*0.8
single + sign + on: sso
restrict + ip: ip_allowlist allowlist*0.9 network_zone*0.7
login + as + user: impersonate impersonation*0.9
promote + admin: role_assignment role*0.8 admin*0.8
who + am + i: me current_user whoami*0.9

# 1. Other phrasings: monitoring and incidents
who + pager: on_call*0.9 oncall*0.8
on + duty: on_call oncall*0.9 schedule*0.7
take + shift: override schedule_override*0.8
no + ack: escalation_policy escalation*0.9
mute + alert: mute downtime*0.9 silence*0.8
planned + maintenance: maintenance_window downtime*0.8 scheduled_maintenance*0.8
warn + when: monitor*0.8 alert_rule*0.8
notify + if + exceed: threshold monitor*0.8 alert_rule*0.7
public + status: status_page
root + cause: postmortem root_cause incident*0.6
lesson + learn: postmortem retrospective*0.9
stack + trace: error*0.8 issue*0.7 event*0.7 logs*0.6
agent + stop + send: no_data*0.8 heartbeat*0.7 agent*0.7
duplicate + alert: dedup_key deduplication*0.9 grouping*0.6

# 1. Other phrasings: calendars, files and documents
open + slot: availability freebusy*0.8
set + up + meeting: event*0.9 booking*0.6
reserve + room: resource room*0.8 event*0.6
who + attend: attendee*0.9 rsvp*0.6
on + vacation: out_of_office ooo*0.8 vacation*0.8 auto_reply*0.6
zoom + link: conference_data conference*0.8 join_url*0.8
give + access + file: permission share*0.9 collaborator*0.7
recycle + bin: trash*0.9 restore*0.7
accidentally + delete: restore undelete*0.8 trash*0.8
drive + full: quota storage_quota*0.9
save + as + pdf: export*0.9
sign + contract: envelope signature_request*0.9 signature*0.8

# 1. Other phrasings: generic API chores
quota + remain: rate_limit quota*0.8 remaining*0.7
request + remain: rate_limit quota*0.8 remaining*0.7
throttle + limit: rate_limit
wait + before + retry: rate_limit*0.8 retry_after*0.8
bump + limit: quota quota_increase*0.8 limit*0.8
plan + include: entitlement feature*0.8 plan*0.7
activity + log: audit_log audit*0.9 event*0.6
who + modify: history audit_log*0.8 audit*0.8 changelog*0.7
regenerate + key: rotate regenerate*0.9
compromise + credential: revoke rotate*0.8
token + leak: revoke rotate*0.8
push + event + server: webhook*0.9
webhook + fail: delivery*0.9 webhook event*0.6
replay + event: redeliver resend*0.8 retry*0.7
upload + csv: import*0.9 bulk*0.7
bring + back + delete: restore undelete*0.9
right + forgotten: erasure gdpr*0.8 redact*0.7
roll + out + gradual: feature_flag rollout*0.8 percentage*0.6

# 2. Outcomes and policies: code hosting and CI/CD
nobody + push: branch_protection protection*0.8 restrictions*0.7
require + review + merge: branch_protection required_pull_request_reviews*0.8
merge + without + review: branch_protection required_pull_request_reviews*0.8
require + check + pass: branch_protection required_status_checks*0.9
prevent + delete + branch: branch_protection allow_deletions*0.7
force + push: branch_protection*0.8 allow_force_pushes*0.8
two + approval: required_approving_review_count branch_protection*0.8
owner + must + approve: require_code_owner_reviews branch_protection*0.8 codeowners*0.7
stale + review: dismiss_stale_reviews*0.9 branch_protection*0.6
merge + green: auto_merge*0.9 enable_auto_merge*0.8
fork + date + up: merge_upstream sync*0.8
prevent + secret + push: push_protection secret_scanning*0.8
deploy + need + approval: protected_environment required_reviewers*0.8
wait + before + deploy: wait_timer*0.9 deployment_protection_rule*0.7
cancel + old + run: concurrency cancel_in_progress*0.8
keep + log: retention*0.9 retention_days*0.8

# 2. Outcomes and policies: issue tracking and support
auto + assign: assign*0.8 automation*0.8 default_assignee*0.7
who + can + close: permission*0.8 permission_scheme*0.7 workflow*0.7 transition*0.6
stale + issue: stale*0.8 automation*0.8 close*0.7
private + issue: confidential*0.8 security_level*0.7 visibility*0.7
assign + available + agent: routing round_robin*0.8
escalate + after: automation*0.8 escalation*0.8 sla*0.7
reply + within: sla sla_policy*0.8
business + hour: business_hours schedule*0.8

# 2. Outcomes and policies: Kubernetes and cloud
least + stay + up: pod_disruption_budget min_available*0.8
least + replica: min_replicas*0.8 pod_disruption_budget*0.7 autoscaler*0.6 min_available*0.6
zero + downtime: rolling_update*0.8 max_unavailable*0.7 pod_disruption_budget*0.6
only + talk: network_policy*0.8
deny + default: network_policy
block + egress: network_policy egress*0.8
keep + secret + image: secret config_map*0.5
bake + image: secret*0.8 config_map*0.7 env*0.6
run + as + root: security_context run_as_non_root*0.8 run_as_user*0.7
privileged + container: security_context privileged*0.9 pod_security*0.7
hog + resource: resource_quota*0.8 limit_range*0.7
critical + pod: priority_class*0.8
restart + automatic: restart_policy liveness_probe*0.8
prevent + public: public_access_block*0.8 policy*0.6
encrypt + rest: encryption kms*0.8 encryption_configuration*0.7
prevent + delete: deletion_protection*0.9 termination_protection*0.8 lock*0.6
keep + backup: retention*0.8 backup_retention_period*0.8
spend + cap: budget*0.9 spending_limit*0.8
data + stay + region: data_residency*0.8 region*0.8 location*0.7
least + privilege: role*0.8 permission*0.8 policy*0.7

# 2. Outcomes and policies: identity
require + mfa: mfa policy*0.8 enrollment_policy*0.7
idle + session: idle_timeout*0.9 session_lifetime*0.8
lock + attempt: lockout*0.9 password_policy*0.7
signup + domain: allowed_domains*0.8 domain*0.7

# 2. Outcomes and policies: payments, billing and commerce
never + charge + more: spending_limit*0.8 limit*0.8 billing_thresholds*0.7
cap + transaction: spending_controls*0.8 spending_limit*0.8 limit*0.7
require + authenticate + card: three_d_secure request_three_d_secure*0.8
double + charge: idempotency_key*0.8 duplicate*0.6
retry + safe: idempotency_key idempotent*0.8
charge + automatic: collection_method*0.8 auto_advance*0.7 default_payment_method*0.6
net + day: days_until_due*0.9 payment_terms*0.8
cancel + unpaid: dunning*0.7 past_due*0.7 cancel*0.6
one + per + customer: once_per_customer usage_limit*0.8 max_redemptions*0.8
only + new + customer: first_time_transaction*0.8 prerequisite*0.6 eligibility*0.6
tax + include + price: tax_behavior*0.9 taxes_included*0.8
stop + sell: inventory_policy inventory*0.7 status*0.6
allow + backorder: inventory_policy*0.9 backorder*0.8
ship + country: shipping_zone*0.9 country*0.6

# 2. Outcomes and policies: messaging, monitoring, files, generic
no + more + email: unsubscribe suppression*0.8 opt_out*0.7
never + email: suppression unsubscribe*0.8
do + not + contact: suppression unsubscribe*0.8 opt_out*0.8
only + admin + post: posting_permissions*0.8 announcement*0.7 channel*0.5
delete + message + after: retention_policy retention*0.8
quiet + hour: quiet_hours dnd*0.8
alert + weekend: maintenance_window downtime*0.8 schedule*0.6 notification_rule*0.6
noisy + log: exclusion_filter*0.8 filter*0.7 index*0.5
only + view + share: permission*0.9 role*0.8 reader*0.8
external + share: sharing_policy*0.8 permission*0.7
read + only + key: restricted_key*0.8 scope*0.8 deploy_key*0.7

# 3. Questions about state: code hosting and CI/CD
merge + yet: merged*0.9 state*0.7 status*0.6
live + yet: deployment*0.8 status*0.8 release*0.6
where + deploy: deployment environment*0.9
version + production: deployment*0.8 release*0.8 environment*0.7
wait + review: review_request requested_reviewer*0.8
latest + build: run build*0.8 status*0.6
which + test + fail: test_report*0.8 check_run*0.8 job*0.7 annotation*0.6
still + run + build: status*0.9 run*0.8 in_progress*0.7
deploy + history: deployment*0.9 history*0.7 revision*0.7
stuck + deploy: deployment_status*0.8 rollout*0.8 status*0.7 event*0.6

# 3. Questions about state: issue tracking
stuck + ticket: blocked*0.8 status*0.7 flagged*0.6
left + sprint: sprint*0.9 issue*0.7 remaining*0.6
assign + me: assigned assignee*0.8
progress + epic: progress*0.8 epic*0.8 child*0.6
burn + down: burndown sprint*0.8 report*0.6

# 3. Questions about state: Kubernetes and cloud
anything + broken: event*0.7 incident*0.7 alert*0.6 status*0.6
stuck + pod: event status*0.8
rollout + finish: rollout status*0.8
which + node + pod: node_name pod*0.7
node + healthy: condition*0.8 status*0.7 node*0.6
why + evict: event eviction*0.7
often + restart: restart_count*0.9 event*0.6
cost + most: cost*0.9 cost_breakdown*0.8 usage*0.6
which + region: region*0.9 location*0.8
cert + expire: certificate expiration*0.7
disk + full: usage*0.8 metrics*0.7 volume*0.6 quota*0.5
last + backup: backup*0.9 snapshot*0.8

# 3. Questions about state: payments, billing and commerce
go + through + payment: status*0.9 payment_intent*0.8 charge*0.8
stuck + payment: payment_intent*0.8 status*0.8 requires_action*0.7
payment + fail: status*0.8 charge*0.7 payment_intent*0.7 failure_code*0.6
money + arrive: payout*0.9 arrival_date*0.8 status*0.7
we + owe: invoice*0.8 amount_due*0.8 balance*0.7 upcoming_invoice*0.7
owe + us: invoice*0.9 amount_due*0.8 status*0.5
who + owe: invoice*0.9 amount_due*0.8 past_due*0.7 customer*0.7
when + renew: current_period_end subscription*0.8 renewal*0.8
subscription + active: status*0.9 subscription*0.7
still + subscribe: subscription*0.8 status*0.8 member*0.6
paid + yet: status*0.9 paid*0.8
dispute + won: status*0.9 dispute*0.8 outcome*0.6
recurring + revenue: mrr*0.9 subscription*0.7 report*0.6
trial + end: trial_end subscription*0.6
card + expire: exp_month exp_year*0.9 payment_method*0.8 card*0.7
credit + left: customer_balance credit_balance*0.8 credit_grant*0.7
ship + yet: fulfillment_status fulfillment*0.8 tracking*0.6
unfulfilled + order: fulfillment_status*0.9 fulfillment_order*0.8
stuck + order: fulfillment*0.8 status*0.7 fulfillment_hold*0.6
many + sold: sales*0.8 report*0.8 order*0.7
order + cancel + why: cancel_reason*0.9

# 3. Questions about state: messaging, CRM, support, identity
message + deliver: status*0.8 delivery_status*0.8
who + seen: seen*0.9 read_receipt*0.8
unanswered + ticket: status*0.8 first_reply_time*0.6 view*0.6
deal + close + month: close_date*0.9 deal*0.8 forecast*0.7
stale + deal: last_activity*0.8 deal*0.8
account + lock: lockout*0.8 status*0.8 unlock*0.7 suspend*0.6
last + seen: last_seen*0.9 last_login*0.8 presence*0.6
password + last + change: password_changed*0.9 audit_log*0.6
what + role: role*0.9 role_assignment*0.8
invite + accept: invitation*0.9 status*0.7

# 3. Questions about state: monitoring, calendars, files, generic
on + fire: incident*0.8 alert*0.7 triggered*0.6
alert + fire: triggered*0.8 alert*0.8 monitor*0.7 state*0.6
error + spike: anomaly*0.8 error_rate*0.8 issue*0.6
first + seen: first_seen*0.9
who + decline: response_status attendee*0.8
next + meeting: event*0.9 upcoming*0.7
who + edit + last: last_modifying_user revision*0.8 activity*0.7
share + me: shared_with_me*0.9 permission*0.6
sign + yet: status*0.9 envelope*0.8 signer*0.7
change + today: history*0.8 audit_log*0.8 event*0.7 changelog*0.7
export + ready: status*0.9 export*0.8 download_url*0.7
import + finish: status*0.9 import*0.8
job + finish: status*0.9 job*0.8
key + expire: expiration expires_at*0.8 api_key*0.7
token + expire: expires_in*0.8 expiration*0.8 introspect*0.6 refresh*0.6

# 4. Values and units that name a domain
cpu + limit: resources limits*0.8 limit_range*0.7 resource_quota*0.6
memory + cap: resources limits*0.8 limit_range*0.7
memory + limit: resources limits*0.8 limit_range*0.7
cpu + request: resources requests*0.8
target + cpu + utilization: horizontal_pod_autoscaler autoscaler*0.8 target_cpu_utilization*0.7
port + expose: service container_port*0.8 expose*0.8 ingress*0.6
port + target: target_port*0.9 service*0.7
replica + ready: ready_replicas status*0.8 readiness*0.6
replica + available: available_replicas status*0.8
version + control + plane: control_plane*0.9 version*0.9 upgrade*0.6
version + cluster: version*0.9 server_version*0.8 kubernetes_version*0.7
node + count: node_count*0.9 node_pool*0.8
ram + gb: machine_type instance_type*0.8
vcpu + machine: machine_type*0.9 instance_type*0.9
gpu + type: accelerator*0.8 machine_type*0.8
disk + gb: volume size*0.8 disk_size*0.8
job + timeout: timeout_minutes*0.8 timeout*0.8 active_deadline_seconds*0.7
terminate + grace: termination_grace_period_seconds grace_period*0.8
grace + payment: grace_period*0.8 dunning*0.7 days_until_due*0.6
retry + backoff: backoff*0.9 retry_policy*0.8 backoff_limit*0.7
ttl + record: dns_record ttl*0.9
ttl + cache: cache ttl*0.9 cache_policy*0.7
percent + traffic: traffic_split weight*0.9 canary*0.8
ip + range: subnet*0.8 cidr_block*0.8 ip_allowlist*0.6
cold + storage: storage_class*0.9 lifecycle_rule*0.6
memory + function: memory_size*0.9 configuration*0.7
cold + start: provisioned_concurrency*0.8 min_instances*0.8
price + unit: unit_amount*0.9 price*0.8
price + month: recurring*0.8 interval*0.8 price*0.8
yearly + bill: interval*0.8 price*0.7 recurring*0.7
tax + percent: tax_rate percentage*0.8
fee + percent: application_fee_percent*0.8 fee*0.8
currency + rate: exchange_rate*0.9
weight + ship: shipping_rate*0.8 weight*0.8 parcel*0.7
weight + package: parcel*0.8 weight*0.9
sku + stock: inventory_item inventory_level*0.9 variant*0.7
request + per + second: rate_limit*0.9 throughput*0.6
time + zone: timezone time_zone*0.9
bump + version: release tag*0.8 version*0.8
reliability + target: slo*0.9
latency + threshold: monitor*0.8 threshold*0.8 slo*0.6
disk + percent: usage*0.8 metrics*0.7 monitor*0.7
# Frequent tasks, each in the several ways people put them (added by the lead from the misses of
# the first three blind sets; blind4 measures them unseen)
approve + pr: review review_event*0.8
lgtm + pr: review review_event*0.8
lgtm + ticket: review review_event*0.8
approve + ticket: review*0.8 approval*0.8
someone + review: requested_reviewer review_request reviewer*0.9
someone + look + pr: requested_reviewer*0.9 review_request*0.9
change + between: compare comparison*0.9 diff*0.8
version + between: compare*0.9 comparison*0.8
change + since + version: compare*0.9 comparison*0.8
write + access: collaborator permission*0.8
push + access: collaborator permission*0.8
push + right: collaborator permission*0.8
write + right: collaborator permission*0.8
assign + someone: assignee
give + ticket + someone: assign assignee*0.9
hand + ticket: assign assignee*0.9
kubernetes + version: code_version version*0.9
cluster + version: code_version version*0.8
server + version + run: code_version version*0.8
cordon + node: unschedulable node*0.9
autoscale + between: horizontal_pod_autoscaler autoscaler
store + token: secret credential*0.7
store + key: secret credential*0.7
store + credential: secret credential*0.8
save + token: secret credential*0.7
save + password: secret credential*0.7
much + make: balance_transaction balance*0.9 revenue*0.7
much + earn: balance_transaction balance*0.9 revenue*0.7
money + connect + account: transfer
send + connect + account: transfer
move + connect + account: transfer
money + seller: transfer*0.9 connected_account*0.7
update + own + card: billing_portal*0.9 portal*0.8
manage + own + billing: billing_portal*0.9 portal*0.8
self + service + billing: billing_portal*0.9 portal*0.8
field + required + create: create_meta createmeta*0.9 meta*0.8
field + mandatory: create_meta*0.9 createmeta*0.9 meta*0.8
email + watcher: notify notification*0.8
email + assignee: notify*0.9 notification*0.8
heads + up + ticket: notify*0.8 notification*0.7
who + assign: assignable user*0.6
account + credit: balance_transaction customer_balance*0.9
credit + toward + invoice: balance_transaction*0.9 customer_balance*0.9
right + service + account: role_binding
admin + right: role_binding*0.8 permission*0.8 collaborator*0.6
report + usage: usage_record
tag + issue: label
status + ticket: issue*0.8
cordon + hostname: node unschedulable*0.8
scale + replica: deployment*0.8 scale*0.8
account + am + i: authenticated_user user*0.7
token + logged: authenticated_user user*0.7
give + ticket + to: assign assignee*0.9
hand + issue: assign assignee*0.9
priority + ticket: edit_issue edit*0.8
url + whenever: webhook webhook_endpoint*0.9
url + every + time: webhook webhook_endpoint*0.9
send + event + url: webhook_endpoint webhook*0.9
charge + saved + card: payment_intent charge*0.9
hosted + checkout: checkout_session
checkout + page: checkout_session*0.9
release + authorization: cancel*0.9
passport + selfie: verification_session identity*0.8
least + drain: pod_disruption_budget
least + up + pod: pod_disruption_budget
view + clusterrole: role_binding
delete + branch: ref*0.9
"""
