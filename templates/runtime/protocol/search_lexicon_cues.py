"""Cue table for operation search: combinations of two or three everyday words that, appearing
together anywhere in a request, reveal which API object or action the user means even when the
request never names it ("grow" with "shrink" means an autoscaler, "calls" with "left" a rate
limit, "concede" with "dispute" closing a dispute). Each line reads ``cue + cue[ + cue]: meant
meant*weight ...``: cue words are written in their base form and match in any order and any
inflection; meant words are API terms as APIs name things (``_`` joins words that must occur
together in an operation), each with an optional weight below 1.0 for a weaker hint. The rules
were written from general knowledge of how people ask APIs for things across many domains (code
hosting, CI/CD, issue tracking, Kubernetes and cloud, payments, messaging, CRM and support desks,
commerce, identity, monitoring, calendars and files, and generic API chores), not from any
particular API's operations and not from any test or benchmark phrasing.
"""

CUES = """
# Code hosting and review
branch + behind: compare comparison*0.9
ahead + behind: compare comparison*0.9
how + far + behind: compare comparison*0.8 lag*0.6
fork + behind: merge_upstream compare*0.7 sync*0.7
diff + between: compare comparison*0.9 diff*0.8
since + last + release: compare*0.8 release*0.7 changelog*0.7
who + wrote + line: blame author*0.7
who + review: reviewer review*0.8
ask + review: review_request requested_reviewer reviewer*0.8
approve + change: review approval*0.8
who + approve: review*0.9 approval reviewer*0.8
conflict + merge: mergeable merge*0.7
comment + line: review_comment*0.9 comment*0.6
stop + people + push: branch_protection protection*0.8
check + pass: check_run check_suite*0.8 status*0.6
commit + green: status*0.9 check_run*0.8 combined_status*0.7
read + file + repo: contents blob*0.6 raw*0.5
who + own + code: codeowners owner*0.6
many + star: stargazer star*0.8
copy + repo: fork*0.9
move + repo: transfer*0.9
freeze + repo: archive archived*0.8
who + access + repo: collaborator permission*0.8
give + access + repo: collaborator permission*0.8 invitation*0.7
publish + version: release*0.9 package*0.6
release + note: release_notes generate_notes*0.7 release*0.6
server + pull + key: deploy_key key*0.6
notify + push: webhook hook*0.8
share + snippet: gist snippet
stop + comment: lock*0.8
where + mention: notification mention*0.8
verify + commit: verification signature*0.8
vulnerable + dependency: dependabot_alert vulnerability*0.9 advisory*0.7
leak + secret + repo: secret_scanning secret_scanning_alert*0.9

# CI/CD: workflows, runs, builds, artifacts, deployments
build + fail + why: log job*0.7 run*0.7
which + step + fail: step job*0.8 log*0.6
run + again + fail: rerun rerun_failed_jobs*0.8 retry*0.8
kick + off: trigger dispatch*0.8 run*0.6
kick + off + again: rerun*0.9 retry*0.7
start + manually: workflow_dispatch dispatch trigger*0.8
build + output: artifact*0.9 log*0.5
download + build: artifact*0.9
how + long + keep: retention retention_days*0.8
clear + cache: cache purge*0.7 invalidation*0.6
password + pipeline: secret variable*0.7
environment + variable: variable env*0.7 config_vars*0.6
approve + deploy: pending_deployment approval deployment_review*0.8
who + can + deploy: protected_environment deployment_protection_rule*0.8 reviewer*0.6
deploy + production: deployment environment*0.8
roll + back: rollback revert*0.7 revision*0.6
undo + deploy: rollback rollout_undo*0.8 revision*0.7
stop + build: cancel
stop + pipeline: cancel
stuck + queue: queued pending*0.7 runner*0.6
machine + job + run: runner self_hosted_runner*0.8
run + nightly: schedule cron*0.8

# Issue and project tracking
who + have + ticket: assignee
who + have + issue: assignee
who + work + on: assignee
hand + off: assign assignee*0.8
pick + up + ticket: assign*0.8 assignee*0.8
on + my + plate: assignee*0.8 assigned*0.8
log + hour: worklog time_tracking*0.7 timelog*0.7
log + work: worklog
spent + hour: worklog time_spent*0.8
track + time: time_entry worklog*0.9 timelog*0.8
can + go + status: transition
move + status: transition
move + done: transition*0.9
mark + done: complete*0.8 transition*0.7 resolve*0.6
start + until: dependency blocked_by*0.9 link*0.8
block + by: blocked_by dependency link*0.8
depend + on: dependency link*0.8
relate + ticket: issue_link link relation*0.7
break + down + task: subtask child*0.7
under + epic: epic parent*0.8
story + point: story_points estimate*0.8
follow + ticket: watcher subscribe*0.8
keep + me + post: watcher subscribe*0.8 subscription*0.7
plus + one: vote reaction*0.6
thumb + up: reaction vote*0.7
push + deadline: due_date due_on*0.7
when + due: due_date due_on*0.8
past + due: overdue past_due due_date*0.6
open + again: reopen*0.9
tag + ticket: label tag*0.8
attach + screenshot: attachment
extra + field: custom_field*0.8
save + search: filter saved_search*0.9 view*0.6
more + urgent: priority*0.9 urgency*0.7
who + report: reporter creator*0.7
recur + task: recurrence recurring*0.9 schedule*0.6
fix + version: fix_version version*0.8
target + release: fix_version milestone

# Kubernetes and containers: workloads, scheduling, access, images
what + run: pod instance*0.5 deployment*0.5
run + namespace: pod namespace*0.6
grow + shrink: autoscaler horizontal_pod_autoscaler*0.8 autoscale*0.9
scale + automatically: autoscaler autoscale horizontal_pod_autoscaler*0.8
pod + between: horizontal_pod_autoscaler*0.8 autoscaler scale*0.6
min + max + replica: autoscaler horizontal_pod_autoscaler*0.8
how + many + replica: scale replicas*0.8
exit + done: job
run + completion: job*0.9
one + off + run: job*0.8
stable + address: service
in + front + pod: service ingress*0.6
reach + from + outside: ingress service*0.7 load_balancer*0.6
route + host + path: ingress*0.9 route*0.7
ip + behind + service: endpoints endpoint_slice*0.9
run + inside: exec
shell + pod: exec
run + command + pod: exec
forward + port: port_forward portforward*0.9
why + crash: log event*0.8
keep + restart: restart_count log*0.7 event*0.7
why + pending: event*0.9 status*0.6
what + happen + cluster: event
kick + out + pod: eviction*0.9
node + maintenance: eviction*0.8 unschedulable*0.8 cordon*0.7
stop + schedule + node: unschedulable cordon*0.9 taint*0.6
keep + pod + away: taint toleration*0.8 affinity*0.7
spread + across: topology_spread_constraints*0.7 anti_affinity*0.7 affinity*0.6
cpu + use: metrics usage*0.9
cap + namespace: resource_quota quota
default + limit: limit_range*0.9
stop + pod + talk: network_policy
block + traffic: network_policy firewall*0.8 security_group*0.7
config + value + pod: config_map
give + permission + namespace: role_binding role
service + account + permission: role_binding*0.9 role*0.7
allow + to: access_review*0.9 self_subject_access_review*0.8 permission*0.8
across + all + namespace: for_all_namespaces
data + survive + restart: persistent_volume_claim persistent_volume*0.8 volume*0.7
every + node: daemon_set*0.9
one + per + node: daemon_set
stable + name + pod: stateful_set
roll + out + image: deployment rollout*0.8
minimum + available: pod_disruption_budget*0.9 min_available*0.8
health + check + container: liveness_probe readiness_probe probe*0.9
ready + traffic: readiness_probe*0.9 readiness*0.8
image + pull + fail: image_pull_secret event*0.7
which + image + run: image container*0.7 pod*0.6
stuck + terminate: finalizer*0.9 grace_period*0.6
unused + image: prune image*0.6
container + memory: stats*0.8 metrics*0.6
container + exit + code: exit_code state*0.8 wait*0.6
image + vulnerable: scan vulnerability*0.9 finding*0.6
where + push + image: registry container_registry*0.8 repository*0.6

# Cloud compute, storage, networking, DNS
spin + up: create instance*0.7 provision*0.6
turn + off + server: stop instance*0.8 power_off*0.8
bigger + machine: resize instance_type machine_type*0.8
run + boot: user_data startup_script*0.9
disk + backup: snapshot backup
point + time + restore: restore point_in_time*0.9 backup*0.7 snapshot*0.6
grow + disk: resize volume*0.7 expand*0.8
fixed + ip: static_ip elastic_ip address*0.8 reserved_ip*0.8
open + port: security_group firewall firewall_rule*0.8 ingress*0.6
private + network: vpc network subnet*0.6
connect + two + network: peering vpc_peering*0.9
reach + internet + private: nat_gateway nat*0.9
outbound + internet: nat_gateway*0.9 egress*0.7
spread + traffic: load_balancer
split + traffic: load_balancer traffic_split*0.8 weight*0.6 canary*0.6
health + check + fail: health_check*0.9 target_health*0.8
server + load + add: autoscaling_group autoscaler*0.8 scaling_policy*0.8
message + fail + process: dead_letter_queue*0.8
read + copy + database: read_replica replica
replica + behind: replication_lag lag*0.8
domain + point: dns_record record*0.8 zone*0.6
mail + server + domain: mx dns_record*0.7
verify + domain + own: domain_verification verification*0.8 txt*0.6 dns_record*0.5
stale + content: purge invalidation*0.9 cache*0.6
certificate + expire: certificate expiration*0.7 renew*0.6
public + bucket: bucket_policy acl public_access_block*0.8
temporary + link: signed_url presigned_url share*0.6
link + expire: signed_url presigned_url shared_link*0.8 expiration*0.6
upload + large + file: multipart_upload resumable*0.7
file + too + big: upload_session resumable*0.8 multipart*0.7
delete + after + day: lifecycle lifecycle_rule*0.9 retention*0.7
keep + old + version: versioning revision*0.7 version*0.6

# Cloud identity, access and cost
who + can + access: permission iam_policy*0.8 access_policy*0.8 collaborator*0.6 member*0.6
who + have + access: collaborator member*0.8 permission*0.8 acl*0.6
grant + access: permission iam_policy*0.8 role_binding*0.7 grant
take + away + access: revoke permission*0.7 remove_member*0.6
temporary + credential: sts session_token*0.8 assume_role*0.8
act + as: impersonate assume_role*0.8 impersonation*0.8
unused + permission: last_accessed*0.8 permission*0.7
machine + identity: service_account
encrypt + key: kms crypto_key*0.8 encryption_key*0.8
how + much + spend: cost spend billing*0.8 usage*0.7
spend + alert: budget alert*0.7

# Payments: holds, captures, refunds, disputes, balances, payouts, connected accounts
hold + money: authorize authorization capture_method*0.7 payment_intent*0.6
hold + card: authorize authorization*0.9 capture_method*0.7
reserve + fund: authorize authorization*0.9 hold*0.7
take + money + hold: capture
charge + hold: capture
release + hold: cancel void*0.8 reversal*0.7
give + money + back: refund
money + back: refund*0.9
return + money: refund
concede + dispute: close dispute*0.8
accept + dispute: close*0.9 accept*0.9
fight + dispute: evidence submit*0.7 dispute*0.6
fight + chargeback: evidence dispute*0.8 submit*0.6
fraud + warning: early_fraud_warning
payment + fail + why: decline_code failure_code*0.9 outcome*0.7 last_payment_error*0.7
who + paid: charge payment*0.8 customer*0.6
one + off + charge: invoice_item payment_intent*0.8 charge*0.7
appear + statement: statement_descriptor
money + available: balance
money + pending: balance pending*0.8 balance_transaction*0.6
pay + out: payout
send + money + bank: payout*0.9 transfer*0.8
when + get + paid: payout*0.9 payout_schedule*0.7
fee + charge: fee balance_transaction*0.8 application_fee*0.6
which + charge + payout: balance_transaction payout*0.8 reconciliation*0.7
split + payment: transfer destination*0.8 application_fee*0.7
pay + seller: transfer connected_account*0.8 payout*0.6
platform + fee: application_fee
take + cut: application_fee*0.9
onboard + seller: account_link connected_account account*0.7
payout + disable: requirements*0.8 payouts_enabled*0.8
add + bank + account: external_account bank_account*0.9
connect + bank: financial_connections bank_account*0.8 external_account*0.7
verify + identity: verification_session identity_verification*0.9 kyc*0.7

# Billing: invoices, subscriptions, checkout, usage
next + bill: upcoming_invoice upcoming invoice*0.7
next + invoice: upcoming_invoice upcoming*0.9
how + much + owe: upcoming_invoice invoice*0.8 amount_due*0.8 balance*0.7
manage + their + card: billing_portal billing_portal_session*0.9
self + serve: billing_portal*0.8 portal*0.7
save + card + later: setup_intent payment_method*0.8
card + on + file: payment_method default_payment_method*0.7
pay + page + host: checkout checkout_session*0.9 payment_link*0.7
payment + page: checkout checkout_session*0.8 payment_link*0.8
link + pay: payment_link checkout*0.7
discount + code: promotion_code coupon*0.8
free + trial: trial trial_period_days*0.8 trial_end*0.7
trial + left: trial_end trial_period_days*0.6
bill + every + month: subscription recurring price*0.7
stop + renew: cancel_at_period_end subscription*0.7 auto_renew*0.7
pause + billing: pause_collection subscription*0.6
upgrade + plan: subscription_item price*0.8 proration*0.7 subscription*0.7
charge + difference: proration
mid + cycle: proration billing_cycle_anchor*0.7
add + seat: quantity subscription_item*0.8
charge + per + use: usage_record metered*0.8 meter*0.8
report + usage: usage_record meter_event*0.8
pay + as + go: metered usage_record*0.8 meter*0.7
sales + tax: tax tax_rate*0.8 tax_calculation*0.7
remind + pay: send reminder*0.8 dunning*0.7
fail + payment + retry: dunning retry*0.8 smart_retries*0.6
mark + invoice + paid: pay paid_out_of_band*0.8
write + off: mark_uncollectible uncollectible*0.9 void*0.6
invoice + mistake: void credit_note*0.8
credit + back: credit_note*0.8 credit*0.7 customer_balance*0.6
prepaid + credit: credit_grant*0.9 customer_balance*0.7
add + line + invoice: invoice_item line_item*0.8
why + cancel: cancellation_details cancellation_reason*0.8 feedback*0.6

# Messaging and chat: Slack, Discord, SMS, email senders
private + message: direct_message dm*0.9 im*0.7 conversation*0.5
who + in + channel: member channel_members*0.8
reply + thread: thread reply replies*0.8 thread_ts*0.7
change + sent + message: update edit*0.8
take + back + message: delete*0.8 unsend*0.7
send + later: scheduled_message send_at*0.8 schedule*0.7
who + online: presence
not + disturb: dnd snooze*0.8
remind + me: reminder scheduled_message*0.5
what + say + channel: history conversation_history*0.9
find + message: search_messages search*0.8
catch + up: unread history*0.6 notification*0.7
mark + read: mark_read*0.9 read*0.7 seen*0.6
give + role: role_assignment member_role*0.8 role*0.7
send + text: sms message*0.8
text + phone: sms*0.9 message*0.6
buy + phone + number: incoming_phone_number available_phone_number*0.8
call + record: recording*0.9
verify + phone: verification verify*0.8 otp*0.7
one + time + code: otp verification*0.8 passcode*0.6
opt + out: unsubscribe opt_out*0.9 suppression*0.7
stop + email: unsubscribe suppression*0.8
who + open + email: open event*0.7 activity*0.6
mailing + list: list audience*0.8 contact_list*0.8
sender + domain + verify: domain_authentication sender_authentication*0.8 domain*0.7 dkim*0.6

# CRM: leads, deals, contacts, activities
close + won: stage*0.9 opportunity*0.7 deal*0.7 closed_won*0.8
move + deal: stage*0.8 deal_stage*0.8
sales + pipeline: pipeline deal*0.7 opportunity*0.7
potential + customer: lead prospect*0.8
turn + into + customer: convert lead_convert*0.8
company + work + at: company*0.8 account*0.7 association*0.6
log + call + customer: activity engagement call*0.6
last + talk: activity engagement*0.9 last_contacted*0.8
follow + up: task*0.8 reminder*0.6
who + own: owner*0.9
same + person + twice: merge*0.9 duplicate*0.8
drip + email: sequence*0.8 campaign*0.7 automation*0.6
where + come + from: source*0.8 referrer*0.6 attribution*0.6
who + fill + form: form_submission submission*0.9
book + meeting + link: meeting_link scheduling_link*0.8 booking_page*0.8

# Support desks: tickets, macros, satisfaction
put + on + hold: hold on_hold*0.9 status*0.6
wait + on + customer: pending status*0.8
canned + response: macro saved_reply*0.9 template*0.7
auto + reply: trigger automation*0.8 macro*0.6 auto_reply*0.8
route + ticket: routing assign*0.7 trigger*0.6 group*0.6
how + happy: satisfaction_rating csat*0.8 survey*0.6
how + fast + respond: sla first_reply_time*0.8 metrics*0.6
how + long + wait: wait_time*0.9 sla*0.7
help + article: article help_center*0.8 knowledge_base*0.8
only + agent + see: internal_note private*0.8 public*0.5
mark + spam: mark_as_spam spam
reply + customer: comment reply*0.9 message*0.6 conversation_part*0.6

# E-commerce: orders, fulfilment, inventory, products, discounts
ship + order: fulfillment fulfill*0.9
where + order: tracking fulfillment*0.8 shipment*0.7
order + arrive: tracking*0.8 fulfillment*0.7 delivery*0.7
hold + ship: fulfillment_hold hold*0.8
ship + label: shipping_label*0.9 label*0.6
ship + cost: shipping_rate shipping_line*0.7 carrier_service*0.6
how + many + stock: inventory_level inventory*0.9 quantity*0.7
stock + left: inventory_level inventory
out + stock: inventory inventory_level*0.8
low + stock: inventory_level inventory*0.9
size + color: variant option*0.8
different + size: variant*0.9
original + price: compare_at_price*0.9
buy + get + free: discount price_rule*0.8 automatic_discount*0.6
left + cart: abandoned_checkout checkout*0.8
return + item: return refund*0.7
send + back + product: return*0.9 refund*0.6
order + after + place: order_edit edit*0.8
on + behalf + order: draft_order
group + product: collection category*0.8
fraud + order: risk order_risk*0.9
pick + up + store: pickup local_pickup*0.8
hide + product: status*0.8 unpublish*0.8 draft*0.6
product + rating: review rating*0.9 product_review*0.8
store + credit: store_credit credit*0.7 gift_card*0.6 customer_balance*0.6

# Identity and access: users, groups, MFA, sessions, roles
forgot + password: reset_password password_reset recovery*0.7
lock + out: unlock reset_password*0.6 lockout*0.8
second + factor: mfa factor*0.9 authenticator*0.6
two + factor: mfa factor two_factor*0.8
authenticator + app: factor totp*0.8 mfa*0.8
lost + phone: factor reset_factors*0.8 mfa*0.7
log + out + everywhere: session revoke*0.8
sign + out: session logout*0.8 revoke*0.6
log + out: session logout*0.8 revoke*0.6
who + log + in: sign_in login*0.9 session*0.7 audit_log*0.7 system_log*0.7
last + log + in: last_login*0.9 sign_in*0.7 login*0.7
fail + login: failed_login sign_in*0.7 log*0.6 audit_log*0.6
left + company: deactivate suspend*0.8 offboard*0.8 deprovision*0.7
new + hire: user onboard*0.8 provision*0.7 activate*0.6
temporarily + disable: suspend*0.9
who + in + group: group member*0.8 membership
app + can + access: app_assignment application*0.7 assignment*0.8
sign + in + with: identity_provider social_connection*0.8 connection*0.7 sso*0.7
token + can + do: introspect scope*0.8 permission*0.6
token + still + valid: introspect introspection*0.9 validate*0.7
app + without + user: client_credentials*0.9 service_account*0.7
disconnect + app: grant*0.8 revoke*0.8 authorization*0.7 installation*0.6
only + from + office: network_zone ip_allowlist*0.9
allow + ip: ip_allowlist allowlist*0.9 network_zone*0.6
password + rule: password_policy policy*0.7
see + as + user: impersonate impersonation*0.9
make + admin: role_assignment role*0.8 admin*0.7
extra + info + user: metadata*0.8 user_metadata*0.8 app_metadata*0.7 profile*0.7
sync + directory: directory provisioning*0.8 scim*0.8
automatically + create + user: provisioning scim*0.8 jit*0.6
log + in + as: me current_user*0.8 whoami*0.8

# Monitoring, alerting and incidents
on + call: on_call oncall*0.9 schedule*0.6
who + on + call: on_call oncall*0.9 schedule*0.8
wake + up: page incident*0.9 notify*0.6
page + someone: incident*0.9 notify*0.7
swap + shift: override schedule_override*0.9
cover + for: override*0.9 schedule_override*0.8
if + no + answer: escalation_policy escalation*0.9
nobody + respond: escalation escalation_policy*0.9
silence + alert: mute downtime*0.9 silence*0.8
quiet + during + maintenance: downtime maintenance_window*0.9
alert + when: monitor alert_rule*0.9
notify + when: monitor*0.7 alert_rule*0.7 webhook*0.7 subscription*0.6
alert + above: threshold monitor*0.8
what + broken: incident*0.8 alert*0.7 status*0.5
site + down: incident status outage*0.8 uptime*0.7
customer + outage: status_page*0.9 incident*0.7
went + wrong: postmortem root_cause*0.8 incident*0.6
after + incident + review: postmortem retrospective*0.9
how + long + down: downtime uptime*0.8 sla*0.6
slow + request: latency trace*0.8 apm*0.7
why + slow: trace latency*0.8 apm*0.6
find + error + log: logs*0.9 query*0.7
add + graph: widget*0.9 dashboard*0.7
stop + report: no_data*0.8 host*0.6 heartbeat*0.6
still + alive: heartbeat health*0.8
ping + site: synthetic*0.8 uptime_check*0.8 monitor*0.6
same + alert + twice: dedup_key deduplication*0.9
who + respond: responder

# Calendars, files and documents
when + free: freebusy availability*0.9
free + busy: freebusy free_busy*0.9 availability*0.8
find + time + meet: freebusy availability*0.8 find_meeting_times*0.7
everyone + available: freebusy*0.9 availability*0.9
book + meeting: event*0.9 booking*0.7
book + room: resource room*0.8 event*0.6
who + come: attendee rsvp*0.6
who + accept: attendee response_status*0.8
repeat + every: recurrence recurring rrule*0.7
out + office: out_of_office ooo*0.8 vacation*0.7 auto_reply*0.6
video + link: conference_data conference*0.8 join_url*0.7
share + with: permission share collaborator*0.7
anyone + with + link: shared_link link_sharing*0.8 permission*0.7
previous + version: revision version*0.9 history*0.7
recover + delete: trash restore untrash*0.8
storage + left: quota storage_quota*0.9
what + change + folder: changes*0.9 activity*0.8
download + pdf: export*0.9
add + row: append values*0.7 row*0.6 insert*0.5
sign + document: signature envelope*0.8 signature_request*0.8

# Generic API chores: limits, usage, audit, keys, webhooks, exports, health
call + left: rate_limit
request + left: rate_limit quota*0.8 remaining*0.7
too + many + request: rate_limit throttle*0.7
when + limit + reset: rate_limit*0.9 reset*0.6
how + much + use: usage*0.9 quota*0.6
plan + limit: quota limit*0.8 entitlement*0.6
raise + limit: quota quota_increase*0.8 limit*0.7 service_quota*0.6
who + change: history changelog audit_log*0.8 audit*0.8
who + delete: audit_log audit*0.9 event*0.6
what + change: history*0.7 changelog*0.7 compare*0.5 diff*0.5
what + happen: event*0.7 audit_log*0.5 history*0.5 timeline*0.5
token + script: personal_access_token api_key*0.8 token*0.7
replace + old + key: rotate rotation key*0.6
leak + key: revoke rotate*0.8
store + password: secret*0.9 credential*0.6
notify + my + server: webhook webhook_endpoint*0.8
call + url + when: webhook
event + deliver + fail: webhook delivery*0.9 event*0.6
send + event + again: redeliver resend*0.8 retry*0.7
signature + verify: signing_secret*0.9 secret*0.7 webhook*0.5
download + all + data: export bulk_export*0.8
load + csv: import*0.9 bulk*0.7
undo + delete: restore undelete*0.9 trash*0.6
delete + personal + data: erasure redact*0.8 gdpr*0.8
run + every: schedule cron*0.8 cron_job*0.6
every + night: schedule cron*0.8
turn + off: disable*0.7 stop*0.6
turn + on: enable*0.7 start*0.6
"""
