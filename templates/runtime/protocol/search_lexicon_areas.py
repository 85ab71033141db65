"""Area table for operation search, the fourth table in the format of ``search_lexicon_cues``: the
first three cover the tasks people ask for most, and this one covers the less common but real areas
of big APIs that users still reach in their own words, such as gists, deploy and signing keys,
Pages, codespaces, rulesets, traffic, runners and caches, OIDC and security alerts in code hosting;
tax ids, quotes, file links, report runs, terminal readers, Radar lists, issuing, treasury, test
clocks and reference data in payments; cron job history, storage and runtime classes, certificate
requests, leases, discovery, admission webhooks, flow control, tokens and rollout history in
Kubernetes; dashboards, filters, screens, schemes, field contexts, versions, settings, link types,
bulk operations and JQL in issue trackers; and a smaller share for messaging, CRM, support desks,
commerce, identity and monitoring. Each line reads ``cue + cue[ + cue]: meant meant*weight ...``
exactly as in the first three tables: cue words are written in their base form and match in any
order and any inflection, and may be the words values become before matching ("ticket",
"someone", "repo", "version", "project", "url"); meant words are API terms as APIs name things,
``_`` joining words that must occur together, with an optional weight below 1.0 for a weaker hint.
No cue set repeats one of the first three tables. The rules were written from general knowledge of
these areas, not from any particular API's operations and not from any test or benchmark phrasing.
"""

AREAS = """
# Code hosting: gists, keys, environments, packages, Pages, codespaces, discussions, projects
code + snippet: gist snippet
paste + code: gist*0.9 snippet*0.8
ssh + key + repo: deploy_key key*0.6
key + clone + server: deploy_key*0.9
ssh + key + account: ssh_key public_key*0.7 key*0.6
sign + commit + key: gpg_key ssh_signing_key*0.9
environment + secret: environment_secret secret*0.8 environment*0.7
which + branch + deploy: deployment_branch_policy*0.9 environment*0.6
gate + deploy: deployment_protection_rule*0.9 protected_environment*0.7
deploy + reviewer: required_reviewers*0.8 protected_environment*0.7 pending_deployment*0.7
package + version: package_version package*0.7
package + old + version: package_version delete*0.6
npm + package: package*0.9 package_version*0.6
static + site: pages*0.9 page*0.6
host + site + repo: pages
custom + domain + site: pages*0.8 custom_domain*0.8 cname*0.6
online + ide: codespace
dev + container: codespace*0.8 devcontainer*0.9
cloud + dev + environment: codespace
forum + repo: discussion
question + answer + repo: discussion*0.9 answer*0.6
mark + answer: discussion*0.7 answer*0.8
kanban + board: board project*0.8 column*0.5
project + column: project_column column*0.8
card + column: project_card card*0.8 column*0.7

# Code hosting: traffic and statistics, rules, autolinks, properties, moderation, git data
how + many + visit: traffic views*0.8 page_views*0.7
visitor + repo: traffic views*0.8
clone + count: clones traffic*0.8
top + referrer: referrer*0.9 traffic*0.8
who + contribute: contributor*0.9 stats*0.7
commit + activity + week: commit_activity stats*0.8
language + repo: languages*0.9
branch + name + rule: ruleset*0.9 branch_protection*0.6
protect + tag: tag_protection ruleset*0.8
bypass + rule: bypass_actors ruleset*0.8 bypass*0.8
auto + link: autolink
prefix + link: autolink*0.8 key_prefix*0.8
property + repo: custom_property*0.9 property*0.8
block + someone + org: block blocked_user*0.8
block + user: block*0.9 blocked_user*0.8
ban + someone: ban*0.9 block*0.9
limit + interaction: interaction_limit
only + collaborator + comment: interaction_limit*0.9
outside + collaborator: outside_collaborator
contractor + repo: outside_collaborator*0.8 collaborator*0.7
template + repo: template_repository*0.8 generate*0.7 is_template*0.6
large + file + repo: lfs*0.9
low + level + git: ref*0.8 tree*0.7 blob*0.7 git_commit*0.7

# Code hosting: utilities, rate limit, notification threads, watching and stars
render + markdown: markdown*0.9 render*0.6
custom + emoji: emoji*0.9 custom_emoji*0.8
open + source + license: license
which + license: license*0.9
ignore + template: gitignore*0.9 template*0.6
code + of + conduct: code_of_conduct
community + health: community_profile*0.9
hit + limit + api: rate_limit*0.9
api + quota: rate_limit*0.8 quota*0.8
unsubscribe + thread: thread_subscription subscription*0.8
mute + thread: thread_subscription*0.9 ignored*0.7 mute*0.6
clear + notification: mark_read*0.8 notification*0.8
watch + repo: subscription*0.9 watcher*0.8 subscriber*0.7
stop + watch: subscription*0.8 watcher*0.9
who + star: stargazer
star + repo: starred star*0.9 stargazer*0.7

# Code hosting: runners, artifacts, caches, logs, OIDC, workflow permissions, security alerts
register + runner: registration_token*0.9 runner*0.7
runner + token: registration_token remove_token*0.7
own + machine + job: self_hosted_runner runner*0.9
which + repo + runner: runner_group*0.8 repository_access*0.6
artifact + expire: artifact retention*0.8 expires_at*0.7
cache + usage: cache_usage cache*0.8
delete + cache + key: cache*0.9 key*0.5
download + log: logs log*0.9 archive*0.5
job + output: log*0.9 output*0.6
console + output: log console_output*0.8 serial_port_output*0.7
federate + identity: oidc federated_credential*0.8 identity_provider*0.7
subject + claim: oidc sub*0.8 claim*0.7
cloud + credential + workflow: oidc*0.9 secret*0.6
workflow + permission: permissions*0.9 default_workflow_permissions*0.8
dismiss + alert: dismiss*0.8 alert*0.7 state*0.6
static + analysis: code_scanning code_scanning_alert*0.9 analysis*0.8
security + fix + automatic: automated_security_fixes*0.9 dependabot*0.7
private + vulnerability + report: private_vulnerability_reporting security_advisory*0.8
detect + secret: secret_scanning_alert*0.9
secret + alert: secret_scanning_alert
outdated + dependency: dependabot*0.8 dependency*0.7
update + dependency + automatic: dependabot*0.9 dependabot_security_updates*0.7
dependency + graph: dependency_graph sbom*0.7
software + bill + material: sbom

# Payments: tax, coupons and promotion codes, quotes, files, reports
tax + id + customer: tax_id
gst + number: tax_id
vat + rate: tax_rate*0.9
tax + registration: tax_registration*0.9 tax_settings*0.6
tax + exempt: tax_exempt*0.9
tax + category: tax_code*0.9
redeem + code: promotion_code*0.9 coupon*0.7 redemption*0.6
limit + redemption: max_redemptions*0.9
how + many + redeem: times_redeemed*0.9 max_redemptions*0.7
remove + discount: delete_discount discount*0.8
sales + quote: quote
proposal + price: quote*0.9
share + upload + file: file_link*0.9 file*0.7
public + link + file: file_link*0.9 shared_link*0.7
run + report: report_run*0.9
financial + report: report_run report_type*0.8
reconciliation + report: report_run*0.8 reconciliation*0.8

# Payments: in-person, identity, fraud lists, issuing, treasury, climate
card + reader: terminal reader
in + person + payment: terminal*0.9 reader*0.8 card_present*0.7
reader + location: terminal location*0.9 reader*0.8
connection + token + reader: connection_token
tap + pay: terminal*0.8 card_present*0.8
selfie + check: verification_session*0.9 selfie*0.8
passport + scan: verification_session*0.9 document*0.7
driver + license: verification_session*0.8 document*0.7
block + list + card: value_list value_list_item*0.8 radar*0.6
fraud + rule: radar rule*0.8 value_list*0.6
fraud + review: review*0.9 radar*0.7
virtual + card: issuing_card card*0.8
employee + card: issuing_card cardholder*0.8
spend + limit + card: spending_controls issuing_card*0.7
card + authorization + approve: issuing_authorization approve*0.8
freeze + card: issuing_card status*0.8
financial + account: financial_account treasury*0.8
send + ach: outbound_payment outbound_transfer*0.8
wire + transfer: outbound_payment*0.8 outbound_transfer*0.8 funding_instructions*0.6
account + routing + number: financial_account*0.8 financial_addresses*0.8 bank_account*0.7
carbon + removal: climate_order climate*0.8
carbon + offset: climate_order*0.9 climate*0.8

# Payments: checkout extras, credit notes, ledger, fees, funding, mandates, reference data
ship + option + checkout: shipping_rate shipping_options*0.8
flat + rate + ship: shipping_rate
delivery + estimate: delivery_estimate*0.9 shipping_rate*0.7
apple + pay: apple_pay_domain*0.9 payment_method_domain*0.8
wallet + domain: payment_method_domain apple_pay_domain*0.8
partial + credit + invoice: credit_note*0.9
refund + paid + invoice: credit_note*0.8 refund*0.8
credit + memo: credit_note
ledger + entry: balance_transaction*0.8 transaction_entry*0.8 ledger*0.8
fee + refund: application_fee_refund fee_refund
add + fund + balance: topup*0.9
debit + authorization: mandate
bank + debit + permission: mandate*0.9
ach + debit: mandate*0.8 us_bank_account*0.7
card + without + charge: setup_intent*0.9
country + support: country_spec*0.9
support + currency: country_spec*0.8 supported_payment_currencies*0.7 currency*0.6
convert + currency: exchange_rate*0.9 fx_quote*0.7
fx + rate: exchange_rate fx_quote*0.8
which + event + webhook: enabled_events*0.9 webhook_endpoint*0.8
miss + event: event*0.9 delivery*0.6 redeliver*0.6
simulate + time: test_clock
fast + forward + time: test_clock
time + travel: test_clock*0.9
customer + bank + transfer: funding_instructions*0.9 cash_balance*0.8
cash + balance: cash_balance customer_cash_balance*0.8
customer + portal + setting: billing_portal_configuration configuration*0.7
feature + access + plan: entitlement*0.9 feature*0.8
expire + checkout: expire checkout_session*0.8
payout + fail: payout failure_code*0.8 status*0.7
micro + deposit: verify_microdeposits microdeposits*0.9
beneficial + owner: person*0.9 representative*0.7
account + can + accept: capability*0.8 charges_enabled*0.8

# Kubernetes: jobs and cron jobs, config and secrets, storage, snapshots
pause + schedule + job: cron_job suspend*0.8
trigger + cron: job cron_job*0.8
run + cron + now: job*0.9 cron_job*0.8
job + history: successful_jobs_history_limit*0.8 failed_jobs_history_limit*0.8 job*0.6
job + retry + limit: backoff_limit
parallel + job: parallelism completions*0.8 job*0.6
job + cleanup: ttl_seconds_after_finished*0.9
miss + schedule: starting_deadline_seconds*0.8 cron_job*0.7
concurrent + run + cron: concurrency_policy
non + secret + config: config_map
immutable + config: immutable config_map*0.7
docker + registry + secret: secret image_pull_secret*0.8
tls + secret: secret tls*0.8
disk + type + volume: storage_class*0.9
dynamic + provision: storage_class*0.9 provisioner*0.8
default + storage: storage_class*0.9
resize + pvc: persistent_volume_claim allow_volume_expansion*0.7
volume + attach + node: volume_attachment
snapshot + volume: volume_snapshot*0.9 snapshot*0.8
snapshot + class: volume_snapshot_class
restore + pvc: volume_snapshot*0.8 data_source*0.7

# Kubernetes: certificates, priority and runtime classes, leases, events, endpoints, ingress
certificate + sign + request: certificate_signing_request
csr + approve: certificate_signing_request approval*0.8
approve + certificate: certificate_signing_request*0.9 approval*0.8
trust + bundle: cluster_trust_bundle
preempt + pod: priority_class preemption_policy*0.8
evict + lower + priority: priority_class*0.9 preemption_policy*0.7
pod + priority: priority_class
sandbox + runtime: runtime_class
container + runtime: runtime_class*0.9
leader + election: lease
who + leader: lease*0.9 holder_identity*0.7
heartbeat + node: lease*0.9 node*0.6
warning + event: event type*0.7
insufficient + cpu: event*0.8 allocatable*0.7 resources*0.6
pod + ip + service: endpoints endpoint_slice*0.9
which + pod + service: endpoints*0.9 endpoint_slice*0.8 selector*0.6
service + no + endpoint: endpoints endpoint_slice*0.8
ingress + controller: ingress_class*0.9
nginx + ingress: ingress_class*0.8 ingress*0.7
default + ingress: ingress_class*0.9
gateway + route: gateway http_route*0.8 route*0.7

# Kubernetes: discovery and extension, admission, flow control, tokens, nodes, debugging
api + group: api_group*0.9 api_versions*0.7
which + api + version: api_versions*0.9
available + resource + type: api_resources*0.9 discovery*0.7
discover + api: discovery api_resources*0.8 api_group*0.7
crd + install: custom_resource_definition
extend + api: custom_resource_definition*0.9 api_service*0.7
admission + webhook: validating_webhook_configuration mutating_webhook_configuration
inject + sidecar: mutating_webhook_configuration*0.9
validate + before + admit: validating_webhook_configuration*0.9 validating_admission_policy*0.8
throttle + api + server: flow_schema*0.9 priority_level_configuration*0.9
api + priority + fairness: flow_schema priority_level_configuration
bound + token: token_request*0.9
token + service + account: token_request service_account*0.8
token + audience: token_request*0.8 audiences*0.8
validate + token + cluster: token_review
my + permission + namespace: self_subject_rules_review self_subject_access_review*0.7
node + pressure: condition*0.9 node*0.7
disk + pressure: condition node*0.8
node + label: node*0.8 label*0.8 patch*0.6
kubelet + version: node_info*0.9 node*0.8
attach + container: attach*0.9 ephemeral_container*0.5
log + specific + container: log container*0.9
previous + container: log previous*0.9
temporary + container: ephemeral_container
debug + pod: ephemeral_container*0.8 exec*0.7
copy + file + pod: exec*0.8

# Kubernetes: rollout status and history, limit ranges, cluster health, rarer kinds
rollout + history: controller_revision*0.9 replica_set*0.8 revision*0.8
rollout + status: status*0.8 deployment*0.7 observed_generation*0.6
pause + rollout: paused deployment*0.8
resume + rollout: paused*0.8 deployment*0.7
max + surge: max_surge rolling_update*0.8
min + max + container: limit_range*0.9
default + memory: limit_range*0.9
health + control + plane: component_status*0.8 healthz*0.7 readyz*0.7
cluster + healthy: healthz*0.8 readyz*0.8 component_status*0.7
manually + schedule + pod: binding*0.8 node_name*0.8

# Issue trackers: dashboards, filters, screens, workflows, permission and other schemes
widget + dashboard: gadget*0.8 widget*0.8 dashboard*0.7
copy + dashboard: dashboard copy*0.8
share + dashboard: dashboard share_permission*0.8
share + filter: filter share_permission*0.8
filter + subscribe: filter_subscription*0.9
email + filter + result: filter_subscription*0.8
field + screen: screen screen_tab*0.7
screen + tab: screen_tab
field + not + appear: screen*0.8 field_configuration*0.7
workflow + scheme: workflow_scheme
transition + condition: workflow*0.8 transition*0.8 condition*0.7
workflow + issue + type: workflow_scheme*0.9
project + permission: permission_scheme*0.8 permission*0.8
browse + permission: permission*0.9 permission_scheme*0.7
my + permission: my_permissions*0.9 permission*0.8
security + level: security_level issue_security_scheme*0.8
hide + ticket: security_level*0.8
email + ticket + event: notification_scheme*0.8

# Issue trackers: custom fields, field configurations, issue types, priorities, statuses
dropdown + option: custom_field_option option*0.8
select + list + option: custom_field_option*0.9 option*0.8
field + option: custom_field_option option*0.8
field + context: custom_field_context context*0.8
field + default + value: default_value custom_field_context*0.7
field + per + project: custom_field_context*0.9
field + id: field*0.9 custom_field*0.8
hide + field: field_configuration*0.9 hidden*0.7
ticket + type: issue_type
bug + story + task: issue_type
type + available + project: issue_type_scheme*0.9 issue_type*0.8
default + priority: priority default*0.7 priority_scheme*0.6
won + fix: resolution*0.9
wont + fix: resolution*0.9
workflow + status: status*0.9 workflow*0.7
categorize + project: project_category*0.9
component + default + assignee: component assignee_type*0.8

# Issue trackers: versions, project roles, groups, audit, server and instance settings
archive + version: project_version*0.8 version*0.8 archived*0.8
combine + version: version*0.9 merge*0.8
merge + version + project: project_version merge*0.8 version*0.7
unreleased + version: version released*0.8 project_version*0.7
version + progress: related_issue_counts*0.7 unresolved_issue_count*0.7 version*0.8
role + member + project: project_role actor*0.8
group + member: group member*0.8
remove + someone + group: group member*0.8
add + someone + group: group member*0.8 membership*0.8
admin + change + log: audit_record*0.8 audit_log*0.8
audit + trail: audit_log audit_record audit*0.8
jira + version: server_info*0.9 version*0.7
base + url: server_info*0.8 base_url*0.8
instance + setting: application_properties*0.8 configuration*0.7 settings*0.7
global + setting: configuration*0.8 settings*0.8 application_properties*0.7
time + track + setting: time_tracking configuration*0.8
hour + per + day: time_tracking working_hours_per_day*0.8
working + day + week: time_tracking*0.8 working_days_per_week*0.8
attachment + size + limit: attachment_settings upload_limit*0.8 attachment_meta*0.8
max + attachment: attachment_settings*0.9 upload_limit*0.8
archive + attachment: attachment*0.8 expand*0.7
user + language: locale*0.8

# Issue trackers: link types, remote links, votes, worklogs, changelogs, bulk, avatars, JQL
link + type: issue_link_type link_type*0.9
block + relation: issue_link_type*0.8 issue_link*0.8
remove + link + ticket: issue_link delete*0.6
external + link + ticket: remote_link
confluence + page + ticket: remote_link*0.9
web + link: remote_link*0.8 web_link*0.8
who + vote: vote votes*0.8 voter*0.7
worklog + delete + since: worklog_deleted deleted*0.8
worklog + change + since: worklog_updated updated*0.8
timesheet + export: worklog*0.8 time_entry*0.7
field + change + history: changelog*0.9
when + status + change: changelog*0.9 history*0.7
who + move + ticket: changelog*0.9
ticket + audit: changelog*0.8 history*0.7
bulk + edit + ticket: bulk bulk_edit*0.9
many + ticket + once: bulk*0.9
move + many + ticket: bulk bulk_move*0.8
mass + update: bulk*0.9 bulk_edit*0.8
bulk + transition: bulk*0.9 transition*0.8
long + run + task: task progress*0.8 async*0.7
async + task + status: task*0.9 status*0.7
project + icon: avatar
profile + picture: avatar photo*0.8 picture*0.7
change + icon: avatar*0.9 icon*0.8
existing + label: label*0.9
jql + validate: jql parse*0.9
query + syntax: parse*0.8 jql*0.8
jql + suggest: autocomplete*0.9 jql*0.8
check + query + valid: parse*0.9 validate*0.7
ticket + match + query: match*0.9 jql*0.8
start + sprint: sprint*0.9 start*0.7
close + sprint: sprint*0.9 complete*0.7
move + ticket + sprint: sprint*0.9

# Messaging and chat
pin + message: pin pinned*0.7
archive + channel: archive*0.8 conversation*0.6
rename + channel: rename*0.8 conversation*0.6
channel + topic: set_topic topic*0.9
group + mention: usergroup*0.9 user_group*0.8
slash + command: slash_command command*0.9
call + transcript: transcript*0.9 recording*0.6
whatsapp + template: message_template*0.9 template*0.8
sender + id: sender*0.8 messaging_service*0.7 alphanumeric_sender_id*0.7

# CRM and support desks
custom + object: custom_object schema*0.7
property + group: property_group*0.9
association + label: association_label*0.9 association*0.8
marketing + email: marketing_email campaign*0.8
lifecycle + stage: lifecycle_stage*0.9
deal + product: line_item*0.9 product*0.6
ticket + form: ticket_form*0.9
suspended + ticket: suspended_ticket
support + address: support_address recipient_address*0.8
agent + skill: skill routing*0.8 attribute*0.6
ticket + field: ticket_field*0.9 custom_field*0.7

# E-commerce
smart + collection: smart_collection collection*0.7
sell + international: market*0.8 price_list*0.7
sales + channel: publication*0.8 sales_channel*0.8 channel*0.7
storefront + token: storefront_access_token
theme + file: asset theme*0.8
carrier + rate: carrier_service*0.9 shipping_rate*0.7

# Identity
sign + key + rotate: signing_key*0.9 rotate*0.7
log + stream: log_stream*0.9
custom + domain + login: custom_domain*0.9
email + template + verify: email_template*0.9
login + page + brand: branding*0.9
cors + origin: trusted_origin*0.8 cors*0.8 allowed_origins*0.8
link + account + identity: identities*0.8 link*0.8
breached + password: breached_password_detection*0.9 attack_protection*0.8
bot + detection: bot_detection*0.9 attack_protection*0.7

# Monitoring
log + parse: logs_pipeline*0.8 processor*0.7 grok_parser*0.7
synthetic + test: synthetics*0.9
service + level: slo*0.9 sla*0.8
status + page + component: component status_page*0.8
incident + subscriber: subscriber*0.8 status_page*0.7
"""
