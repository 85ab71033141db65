"""The general lexicon's nouns: what people call things (see ``search_lexicon.py``)."""

# a user's noun (slang, abbreviation, near synonym) -> the words APIs use for that thing
NOUNS = """
ticket: issue*0.9 task*0.6 case*0.5 card*0.4
bug: issue*0.9 defect*0.5 incident*0.4
defect: issue*0.9 bug*0.8
story: issue*0.7
chore: task*0.8 issue*0.6
subtask: sub_issue*0.7 task*0.7 issue*0.6
todo todos: task*0.9 issue*0.5 checklist*0.5 item*0.4
task: issue*0.6 todo*0.6 card*0.5
dupe dupes dup: duplicate*1.0
blocker: dependency*0.7 link*0.5 relation*0.5
dep deps: dependency*1.0
dependency: package*0.5
prio: priority*1.0
urgency: priority*0.8
severity: priority*0.7
sev: severity*0.8 incident*0.6
deadline duedate: due_date*1.0 due*0.8
eta: due_date*0.6 estimate*0.6
points storypoints: story_points*0.8 estimate*0.6
category: label*0.7 tag*0.7
board: project*0.7
kanban: board*0.9 project*0.6
sprint: iteration*0.8 cycle*0.7 milestone*0.5
iteration: sprint*0.8 cycle*0.7
milestone: release*0.6 version*0.6
roadmap: milestone*0.6 project*0.5 initiative*0.5
column: list*0.6 status*0.6
lane swimlane: column*0.8 list*0.6 status*0.5
status: state*0.7
state: status*0.7
pr prs: pull_request*1.0 pull*0.8 merge_request*0.8
mr: merge_request*1.0 pull_request*0.8
repo repos: repository*1.0 project*0.7
codebase: repository*0.8 project*0.6 code*0.5
changeset changelist: commit*0.7 diff*0.5
sha: commit*0.8 ref*0.6
hash: sha*0.7 commit*0.6
rev: revision*0.9 version*0.7 commit*0.6
revision: version*0.8 commit*0.6
ver: version*1.0
version: release*0.7 tag*0.6 revision*0.6
branch: ref*0.7
trunk: default_branch*0.8 main*0.7 branch*0.7
master: default_branch*0.6 main*0.6 branch*0.5
changelog: release*0.7 notes*0.6
gist: snippet*0.9
snippet: gist*0.9
readme: file*0.6 content*0.6
wiki: page*0.6 document*0.5
org orgs: organization*1.0 workspace*0.6 account*0.5 team*0.4
company: organization*0.7 account*0.6
workspace: organization*0.6 team*0.6
team: group*0.7
squad crew: team*0.9 group*0.8
dept: department*1.0 team*0.6 group*0.6
department: team*0.6 group*0.6
group: team*0.7
teammate teammates colleague coworker: member*1.0 user*0.8 collaborator*0.7
folks peeps: user*0.9 member*0.8
people: user*0.8 member*0.8 contact*0.6 person*0.5
person: user*0.8 contact*0.6 member*0.6
someone somebody: user*0.7 member*0.6
employee: user*0.8 member*0.7
staff: employee*0.8 user*0.8 member*0.8
boss supervisor: manager*1.0 owner*0.7 admin*0.5
manager: owner*0.6 admin*0.5
admin: administrator*0.8 owner*0.6
sysadmin superuser: admin*0.9 administrator*0.8 owner*0.5
owner: admin*0.6 maintainer*0.5
maintainer: owner*0.6 admin*0.6
contributor: collaborator*0.9 member*0.8
reviewer: approver*0.7
approver: reviewer*0.7
me myself my mine: current*0.8 authenticated*0.7 self*0.6
customer: user*0.5 account*0.5 contact*0.5
client: customer*0.6 application*0.6
buyer shopper purchaser patron: customer*1.0 user*0.5
subscriber: follower*0.6 member*0.6 contact*0.6
fan: follower*0.8 subscriber*0.7
follower: subscriber*0.7 watcher*0.6 stargazer*0.5
watcher: subscriber*0.7 follower*0.6
audience: list*0.6 segment*0.6 subscriber*0.6
cohort: segment*0.8 audience*0.6 group*0.6
guest: collaborator*0.6 visitor*0.5 invitee*0.5
visitor: guest*0.6 user*0.5
prospect: lead*0.9 contact*0.8
contact: person*0.6 lead*0.5 customer*0.5
deal: opportunity*0.9
opp oppty: opportunity*1.0 deal*0.9
tenant: organization*0.6 account*0.6 realm*0.5
realm: tenant*0.6
handle: username*0.8 login*0.6
username: login*0.6 handle*0.5
nick: nickname*1.0 display_name*0.8
nickname: display_name*0.8 username*0.5
bio: description*0.6 profile*0.6
desc descr: description*1.0
pfp: avatar*1.0 profile_picture*0.9 photo*0.7 image*0.6
avatar: photo*0.7 image*0.6
signup: registration*0.8 user*0.5
registration: signup*0.8
bot: app*0.7 application*0.6 integration*0.6 user*0.4
app apps: application*0.9 integration*0.6 installation*0.4
integration: app*0.7 installation*0.6 connection*0.5
plugin: extension*0.8 addon*0.8 app*0.6 integration*0.6
addon: plugin*0.8 extension*0.8 app*0.6 integration*0.6
ci: pipeline*0.9 workflow*0.8 build*0.7 job*0.6 check*0.6
pipeline: workflow*0.8
workflow: pipeline*0.8 action*0.4
job: run*0.6 task*0.5
runner: agent*0.7 worker*0.6
agent: runner*0.6 worker*0.6
artifact: package*0.5 asset*0.5
binary binaries: artifact*0.7 asset*0.7 file*0.5
asset: attachment*0.7 file*0.6 artifact*0.6
cron: schedule*0.9 cronjob*0.8 trigger*0.5
crontab: cronjob*0.8 schedule*0.8
hook hooks: webhook*1.0
callback: webhook*0.7
endpoint: url*0.6 webhook*0.5
url: link*0.6 address*0.4
uri: url*0.9
spec: specification*0.9 schema*0.6 definition*0.6
swagger: openapi*0.8 specification*0.7
env: environment*0.9 variable*0.6
envvar var vars: variable*1.0 config*0.6 secret*0.5 environment*0.5
config: configuration*0.9 settings*0.8
conf cfg: config*1.0 configuration*0.9 settings*0.8
settings: preferences*0.7 configuration*0.7 config*0.7
preferences: settings*0.8
prefs: preferences*1.0 settings*0.8
prod: production*1.0 environment*0.7
production: environment*0.6
stg: staging*1.0 environment*0.7
staging: environment*0.6
creds: credential*1.0 secret*0.8 token*0.7 key*0.6 password*0.6
credentials: secret*0.7 token*0.6 key*0.5
secret: credential*0.7 key*0.5
pw pwd passwd passcode: password*1.0
passphrase: password*0.8 secret*0.6
key: api_key*0.7 credential*0.6 token*0.5
apikey: api_key*1.0 key*0.9 token*0.7
pat: personal_access_token*1.0 token*0.8
jwt bearer: token*0.9
token: credential*0.6 key*0.6
cert certs: certificate*1.0
tls: certificate*0.8 ssl*0.6
ssl: certificate*0.8 tls*0.7
mfa: two_factor*0.8 factor*0.7
2fa: mfa*0.9 two_factor*0.9 factor*0.7
otp totp: mfa*0.7 factor*0.6 code*0.5
sso: identity_provider*0.7 saml*0.6
idp: identity_provider*1.0 sso*0.6
saml oidc: sso*0.7 identity_provider*0.6
perms: permission*1.0 access*0.7 role*0.6
permissions: role*0.6 access*0.6
privileges rights: permission*0.9 role*0.7
access: permission*0.6 grant*0.5
acl: permission*0.8 policy*0.6
role: permission*0.6
session: token*0.6 login*0.5
ssh sshkey: ssh_key*1.0 key*0.6
gpg pgp: gpg_key*1.0 key*0.7
vm vms: instance*1.0 virtual_machine*1.0 machine*0.8 server*0.7 droplet*0.6
box: server*0.9 instance*0.8 machine*0.7 droplet*0.5 host*0.5
server servers: instance*0.8 machine*0.7 droplet*0.6 host*0.6 guild*0.4
machine: instance*0.8 server*0.7 virtual_machine*0.7
ec2: instance*0.9
vps: server*0.8 instance*0.8 droplet*0.7
droplet: instance*0.7 server*0.7
host: hostname*0.7 server*0.6
hostname: host*0.7 domain*0.6
disk disks: volume*0.9
ebs: volume*1.0
storage: volume*0.6 bucket*0.6
s3: bucket*0.8 object*0.7 storage*0.6
blob blobs: object*0.8 file*0.6
ami: image*0.9 machine_image*0.8
iso: image*0.7
docker: container*0.7 image*0.6
ctr: container*1.0
k8s kube: kubernetes*1.0 cluster*0.7
ns: namespace*1.0
svc: service*1.0
pvc pvcs: persistentvolumeclaim*1.0 volume*0.5
pv: persistentvolume*1.0 volume*0.7
hpa: horizontalpodautoscaler*1.0 autoscaler*0.8
vpa: verticalpodautoscaler*1.0 autoscaler*0.7
cm: configmap*1.0
sts: statefulset*1.0
ds: daemonset*1.0
deploy: deployment*0.8 release*0.6 rollout*0.6
rs: replicaset*1.0
sa: serviceaccount*1.0 service_account*0.9
crd: customresourcedefinition*1.0
netpol: networkpolicy*1.0
pdb: poddisruptionbudget*1.0
sc: storageclass*1.0
ing: ingress*1.0
cj: cronjob*1.0
nodepool: node_pool*1.0 pool*0.6
lambda: function*0.9
fn func: function*1.0
serverless: function*0.8
db dbs: database*1.0
rds: database*0.8 db_instance*0.7 instance*0.6
row: record*0.8 item*0.6 entry*0.6
entry: record*0.7 item*0.7
sqs: queue*0.9
sns: topic*0.8
pubsub: topic*0.7 subscription*0.6
ip ips: ip_address*1.0 address*0.8
firewall: security_group*0.7 rule*0.6
fw: firewall*1.0 security_group*0.6
sg: security_group*1.0
nsg: network_security_group*1.0 security_group*0.8
vpc: network*0.8 virtual_network*0.6
vnet: virtual_network*1.0 network*0.8 vpc*0.7
lb elb alb nlb: load_balancer*1.0 target_group*0.4
cdn: distribution*0.7 cache*0.5
domain: zone*0.7 hostname*0.6
subdomain: domain*0.7 record*0.6 hostname*0.6
dns: record*0.6 zone*0.6
site: website*0.8 domain*0.6
website: site*0.8 domain*0.6
region: location*0.7 zone*0.7
dc datacenter: region*0.8 location*0.7
az: availability_zone*1.0 zone*0.9
logfile syslog: log*0.9
alarm: alert*0.8
outage: incident*0.9
oncall: schedule*0.6 rotation*0.6
rotation: schedule*0.7
pager: incident*0.6 notification*0.5
stats: statistics*0.9 metrics*0.8 analytics*0.7 insights*0.6 report*0.6
analytics: metrics*0.7 insights*0.7 report*0.6 stats*0.6
kpi kpis: metric*0.8
dash: dashboard*0.9
quota: limit*0.8
error errors: exception*0.8 issue*0.5 event*0.5
crash: error*0.8 exception*0.7 issue*0.5 event*0.5
health: status*0.8 healthcheck*0.8 ping*0.5
uptime: health*0.7 status*0.7 monitor*0.6
evt: event*1.0
feed: activity*0.7 timeline*0.6
activity: event*0.7 feed*0.6
history: log*0.7 activity*0.7 audit*0.6 revision*0.5
notif notifs: notification*1.0
garbage: trash*0.9
invoice: bill*0.6 statement*0.5
receipt: invoice*0.7 payment*0.6 charge*0.5
txn: transaction*1.0 payment*0.8 charge*0.7
transaction: payment*0.8 charge*0.7
chargeback: dispute*1.0
sub: subscription*1.0
membership: subscription*0.7 member*0.6
plan: price*0.7 product*0.6 tier*0.6 subscription*0.5
tier: plan*0.8 price*0.6
pricing: price*0.9 plan*0.7
sku: product*0.7 variant*0.7 price*0.6
promo: promotion_code*1.0 promotion*0.9 coupon*0.9 discount*0.8
voucher: coupon*0.9 discount*0.7
discount: coupon*0.8
giftcard: gift_card*1.0
money cash dough moolah bucks: balance*0.8 payout*0.6 payment*0.5
funds: balance*1.0 payout*0.7
paycheck salary wages payday: payout*0.8 payroll*0.7 payment*0.6 compensation*0.5
earnings: payout*0.8 balance*0.7 revenue*0.6
income: revenue*0.7 balance*0.6 payout*0.5
sales: order*0.7 charge*0.6 revenue*0.6
creditcard: card*1.0 payment_method*0.8
wallet: balance*0.6 payment_method*0.6
bank iban: bank_account*0.8 external_account*0.6
cart: checkout*0.7
basket: cart*0.9 checkout*0.6
shipment: fulfillment*0.7 delivery*0.6
parcel: shipment*0.8 package*0.6
delivery: shipment*0.7 fulfillment*0.7
stock: inventory*0.9 inventory_level*0.7
storefront: shop*0.8 store*0.8
shop: store*0.8
store: shop*0.8
merchant: account*0.6 shop*0.5
listing: product*0.7
expense expenses: cost*0.7 spend*0.6
cost costs: billing*0.7 usage*0.6 price*0.6
spend spending: cost*0.8 billing*0.7 usage*0.6
rating: review*0.7 feedback*0.6
feedback: comment*0.6 review*0.6 survey*0.5
questionnaire: survey*0.9 form*0.8
survey: form*0.7
poll: survey*0.7 vote*0.6
note notes: comment*0.7 annotation*0.5
memo: note*0.8 comment*0.6 description*0.5
convo: conversation*0.9 thread*0.7 chat*0.6 channel*0.5
chat: conversation*0.8 message*0.6 channel*0.6
discussion: thread*0.7 comment*0.6
thread: conversation*0.6 discussion*0.6 reply*0.5
dm dms: direct_message*1.0 message*0.8 im*0.8 conversation*0.6
im: direct_message*0.8 message*0.8
msg msgs: message*1.0
sms txt: message*0.8
text: message*0.5 sms*0.5
mms: message*0.7 media*0.5
email emails: mail*0.8 message*0.6
mail: email*0.9 message*0.6
inbox: mailbox*0.8 message*0.5
mailbox: inbox*0.8
newsletter: campaign*0.8 list*0.5
phone: phone_number*0.8 call*0.5
voicemail: recording*0.7 message*0.5
meeting: event*0.7 call*0.5
standup: meeting*0.8 event*0.7
huddle: meeting*0.7 call*0.7
webinar: meeting*0.7 event*0.6
appt: appointment*1.0 event*0.8 booking*0.7
appointment: event*0.8 booking*0.7 meeting*0.6
booking: appointment*0.8 reservation*0.7 event*0.5
reservation: booking*0.8
cal: calendar*0.9 event*0.4
agenda: calendar*0.7 event*0.6 schedule*0.5
slot: availability*0.7 freebusy*0.7
room: channel*0.8 space*0.6 conversation*0.6
chatroom: channel*1.0 room*0.8
emote: emoji*0.9 reaction*0.6
emoji: reaction*0.7
reaction: emoji*0.6
sticker: emoji*0.6
shift: schedule*0.6 oncall*0.6
pto: time_off*1.0 leave*0.8 absence*0.7
timeoff: time_off*1.0 leave*0.7
vacation holiday: time_off*0.8 leave*0.6 absence*0.6
ooo: out_of_office*0.9 time_off*0.7 status*0.5
timesheet: time_entry*0.8 worklog*0.8
duration: time_spent*0.8 worklog*0.7 time_entry*0.7 time*0.6 timer*0.5
worklog: time_entry*0.8
hours: time_entry*0.6 worklog*0.6
doc docs: document*1.0 file*0.8 page*0.5
document: file*0.7
spreadsheet: sheet*0.7 file*0.6
sheet: spreadsheet*0.8
deck: presentation*1.0 slides*0.8 file*0.5
slides: presentation*0.9 file*0.5
presentation: slides*0.8 file*0.5
pdf: document*0.8 file*0.7
attachment attachments: file*0.7 asset*0.6
folder: directory*0.8
dir: directory*1.0 folder*0.9 path*0.5
kb knowledgebase: knowledge_base*1.0 article*0.7
faq faqs: article*0.7 knowledge_base*0.6
blog: post*0.8 article*0.7
post posts: article*0.6 message*0.6 entry*0.5
tweet: post*0.8 status*0.7
article: post*0.6 page*0.6
pic pics picture img: image*1.0 photo*0.8
photo: image*0.9
screenshot: image*0.8 attachment*0.6
gif: image*0.7
thumbnail: image*0.6 preview*0.5
vid vids: video*1.0
clip: video*0.8
movie: video*0.7 media*0.6 item*0.5
film: movie*0.9 video*0.7 media*0.6 item*0.5
footage: video*0.8 recording*0.7 media*0.6
song: track*1.0 item*0.5
music: track*0.7 audio*0.6
podcast: show*0.8 episode*0.6
tracklist: track*1.0
country countries: market*0.6 region*0.6 locale*0.5
series: show*0.7 season*0.5
livestream: live_stream*1.0 stream*0.8 broadcast*0.7
subtitle: caption*0.8
captions: caption*1.0 subtitle*0.8
library: collection*0.7
watchlist: favorite*0.6 playlist*0.5
device: machine*0.5 endpoint*0.5
laptop computer desktop pc: device*0.8 machine*0.6 endpoint*0.5
gadget mobile: device*0.7
place: location*0.8 address*0.6
venue: location*0.8 place*0.7
"""
