"""The search's built-in word tables: how people say what they want done to an API, in plain text.

Read by ``search_vocabulary.py`` on first use. Everything here is about APIs in general (issue
trackers, code hosts, payments, clusters, messaging, identity), never about one API: what one API
calls its things is learned from its own operations. Words are written plainly; the parser stems
them. In the related tables a line ``a b c: x y*0.4 p_q`` says that each of ``a b c`` also finds
``x`` (for 0.7 of a match unless a weight is given), ``y`` (for 0.4), and ``p`` with ``q`` together.
"""

STOP = """
a an the this that these those some any each of to in on at by for from with into onto over about
as than then so and or but if via per up down out off away back again also too very just only
please pls can could would should will shall may might must need needs want wants wanna let lets
i im ive id we us our ours you your yours he she it its they them their his her there here
is are was were be been being am do does did doing done has have had having one ones
me my mine myself now currently right quick quickly already still yet not no dont don t s re ll ve
how what which whom whose where when somehow maybe kindly actually really basically
whole entire nothing anything something him nobody anybody anyone everyone everybody anymore
called named titled
"""
# question words and the words that start a yes/no question: the query wants to read
QUESTIONS = "who whom whose what which where when why how"
CHECKS = "is are was were am do does did has have had can could should will would"
# the words of a request that only points back at what the user told ("could you take care of that")
VACUOUS = """take care of that this it handle do sort out deal with make happen for me us please pls
thanks thank you help get done"""
# "me", "my": the authenticated user's
SELF = "i im me my mine myself"
SELF_TERMS = "authenticated current calling me my mine myself viewer"
# two-letter words that are words (most short tokens of a query are values: "pi_123", "v2")
SHORT = "i me my pr id ip db ci cd ui os vm ns io qa dm ok pm cm ds rs pv sa"
PREPOSITIONS = """for to in on at from of with into onto about by via per inside across between
under within without after before during through"""
CLAUSES = "so because since whenever while if unless until"
PARTICLES = "up down out off on over back away"
# raw word = the spelling both documents and queries use
EQUIVALENT = """
repository=repo repositories=repo organization=org organisation=org organizations=org
organisations=org pr=pull prs=pull mr=pull mrs=pull configuration=config configurations=config
information=info statistics=stat stats=stat administrator=admin administrators=admin
application=app applications=app database=db databases=db directory=dir directories=dir
environment=env environments=env identifier=id ids=id webhook=hook webhooks=hook people=person
children=child added=add paid=pay sent=send made=make gave=give given=give built=build
wrote=write written=write ran=run taken=take took=take found=find kept=keep sold=sell
bought=buy shown=show seen=see saw=see broken=break broke=break analyses=analysis
indices=index manually=manual recently=recent lately=recent automatically=automatic permanently=permanent
email=email emails=email creds=credential perms=permission perm=permission
msg=message msgs=message pwd=password passwd=password svc=service img=image imgs=image
addr=address num=number qty=quantity desc=description txn=transaction txns=transaction
sub=subscription subs=subscription acct=account accts=account k8s=kubernetes
cm=configmap sts=statefulset ds=daemonset rs=replicaset pv=persistentvolume
pvc=persistentvolumeclaim hpa=horizontalpodautoscaler netpol=networkpolicy
crd=customresourcedefinition csr=certificatesigningrequest pdb=poddisruptionbudget
cronjobs=cronjob statefulsets=statefulset daemonsets=daemonset replicasets=replicaset
"""
# phrases written in documents and queries alike
PHRASES = """
pull request=pull|merge request=pull|pull requests=pull|merge requests=pull
"""
# phrases only users say, and what they stand for; a phrasal verb ("take out") also matches
# with its particle a few words later ("take the user out")
QUERY_PHRASES = """
tear down=delete|get rid of=delete|clean up=delete|kick out=remove member|take out=remove
wipe out=delete|throw away=delete|shut down=stop|spin up=create|set up=create|sign up=create
stand up=create|start up=create|fire up=create|kick off=trigger|fire off=trigger|look up=get
look for=search|find out=get|pull up=show|bring up=show|check out=show|look at=show
money back=refund|give back=refund|pay back=refund|how many=how count|how much=how count
who am i=who me user|whoami=who me user|log in=authenticated|logged in=authenticated|signed in=authenticated
sign in=authenticated|by hand=manual|for good=permanent|forever=permanent
write access=push permission|read access=pull permission|admin access=admin permission
on file=saved|time entry=worklog|work log=worklog|time spent=worklog|hours worked=worklog
store credit=credit balance|thumbs up=reaction|thumbs down=reaction|bad debt=uncollectible
write off=uncollectible|who can=who access|who has access=who access
turn on=enable|turn off=disable|switch on=enable|switch off=disable
sign off=approve|hand over=transfer|give away=transfer|roll out=update|roll back=rollback
stop watching=unwatch|stop following=unfollow|go through=status|gone through=status
went through=status|at once=bulk|in bulk=bulk|bring back=restore|write down=note
right now=now|up to date=sync|catch up=sync|credit card=card|debit card=card
api key=key|access token=token|personal access token=token
status check=check|code review=review|ci run=workflow run|ci job=workflow job
build log=log|build logs=log|error log=log|error logs=log
tell me=show|tell us=show|drop a note=add comment|drop a comment=add comment|leave a note=add comment
leave a comment=add comment|drop a line=send message|need a=create|need an=create|want a=create
want an=create|need a list=list|want a list=list|need a report=list|need a summary=show
autoscale=create autoscaler|pay out=create payout|in one go=bulk|in one shot=bulk
all at once=bulk|get out of=leave|be notified=subscribe|get notified=subscribe|notify me=subscribe
"""
# the verbs that say which kind of operation a query wants (a word may be in two lists)
INTENT_VERBS = {
    "create": """create make new build generate produce open start launch provision initialize
        init establish add insert register enroll onboard file submit raise post write draft
        compose put save store upload attach install invite issue publish log record book
        setup spawn give grant expose request subscribe upvote vote favorite bookmark ask
        deploy schedule import append introduce author scaffold bootstrap enter reply respond
        apply
        answer comment""",
    "delete": """delete remove drop destroy erase purge wipe kill trash discard revoke uninstall
        unlink detach unassign kick ban deregister unregister unsubscribe unwatch unstar
        unfollow forget nuke cancel terminate abort end retire decommission deactivate
        unpublish""",
    "update": """update edit change modify alter rename set tweak adjust patch replace configure
        apply rollout
        toggle switch turn enable disable mark move upgrade downgrade rotate reset fix correct
        amend scale cordon suspend pause archive unarchive restart rewrite reassign reorder
        unassign close reopen resolve finish complete deactivate activate promote demote bump
        increase decrease extend limit restrict allow protect unprotect hide overwrite swap
        sync refresh reprioritize prioritize relabel retitle""",
    "read": """get show see view read fetch retrieve inspect describe display peek examine grab
        check tail print details info detail count look monitor track summarize download""",
    "list": """list all every enumerate browse search find query filter grep lookup everything
        discover explore scan dump""",
}
# verbs of their own: first in a query, they ask for that action ("send money to ...")
ACTION_VERBS = """send refund merge fork star follow approve reject cancel stop pause resume trigger
run rerun retry restart ship close reopen reply lock unlock block unblock invite transfer archive
restore render convert compare rotate scale evict drain exec forward notify email pay charge
capture confirm void finalize verify accept decline dispute attach detach link unlink mention
react upvote vote pin unpin mute unmute publish unpublish sync import upload ping deploy install
uninstall move copy clone duplicate squash rebase revert rollback promote demote reset dismiss
request ask dispatch execute kick ban approve expire release reverse assign unassign"""
# verbs that say nothing but their intent: they set it and are not matched as words
GENERIC = """create make new build add insert put delete remove drop destroy erase update edit
change modify alter tweak adjust get show see view read fetch retrieve display list enumerate
browse look"""
# words that say nothing about which operation: "show details of JRA-9"
VAGUE = "details detail info information data stuff something everything"
# how operations name what they do (name, summary, description), by intent; other verbs (merge,
# fork, star, ...) are an operation's own
OPERATION_VERBS = {
    "create": "create add insert post new generate register upload invite make open start submit",
    "read": "get retrieve read fetch show view describe download check count return",
    "list": "list search find query browse enumerate",
    "update": "update edit modify patch set replace change rename configure enable disable toggle",
    "delete": "delete remove destroy purge revoke unset clear detach erase",
}
# what verbs mean when they are a query's verb ("file a bug"; a file is something else)
VERB_SENSES = """
make new build create generate produce draft compose author: create add*0.5
open start launch spawn initialize: create start*0.6 add*0.4
init establish provision setup bootstrap: create start*0.6 add*0.4
add insert attach put append include introduce enter: add create*0.6 attach*0.5
register enroll onboard: create register*0.8 add*0.5
file submit raise post: create submit*0.6
write save store record log book: create add*0.5 save*0.6
upload import: upload import*0.8 create*0.5
install: install create*0.6
deploy: deploy deployment*0.8 create*0.5
schedule: schedule cron*0.6 create*0.5
expose publish: expose publish create*0.4 service*0.4
request: request create*0.5 claim*0.5
ask: request invite*0.5
give grant: add grant*0.8 create*0.4 binding*0.5
delete remove drop destroy erase purge wipe kill trash discard nuke forget: delete remove
cancel abort terminate end: cancel delete*0.6 stop*0.5
retire decommission deactivate unpublish: delete*0.6 disable*0.6 remove*0.5
kick ban: remove delete*0.5 block*0.5 member*0.4
revoke: revoke delete*0.6 remove*0.6
uninstall unlink detach unassign unregister deregister: remove delete*0.6 detach*0.6
update edit change modify alter tweak: update edit*0.6 set*0.4
adjust amend correct fix rewrite overwrite: update edit*0.6 set*0.4
rename retitle relabel: rename update*0.6
set configure: set update*0.6
replace swap: replace update*0.6 set*0.5
toggle switch turn: update*0.6 enable*0.5 disable*0.5
enable activate allow: enable activate*0.8 update*0.4
disable deactivate restrict: disable update*0.4
mark: mark update*0.6 set*0.5
move: move transfer*0.5 transition*0.5 update*0.4
increase decrease bump raise extend: update*0.6 increment*0.6 scale*0.4
promote demote: update*0.6 role*0.4
sync refresh: sync refresh update*0.5
get show see view read fetch retrieve display inspect describe peek examine grab detail look: get
list enumerate browse dump: list
search find query grep lookup filter discover explore scan: search find*0.8 list*0.5 query*0.6
check verify: check get*0.6 verify*0.6
monitor track: get*0.5 watch*0.5 status*0.5
"""
# near words, wherever they are in a query
RELATED = """
ip ips: address*0.7 endpoint*0.5
filepath: file*0.8 content*0.8 path*0.7
bunch many multiple several batch bulk: bulk multiple*0.6 batch*0.6
open: open state*0.5
all every everything each everywhere: all list*0.5 collection*0.8
who: user*0.4 member*0.4 person*0.4
someone: user member*0.8 person*0.8
count total number: count total*0.8 number*0.5 stat*0.4
why: log*0.4 status*0.4 event*0.4 reason*0.4
fail failed failure failing crash: fail*0.8 error*0.7 log*0.5 status*0.5
crashing crashed error broken broke: fail*0.8 error*0.7 log*0.5 status*0.5
healthy health unhealthy alive down up running: status health condition*0.6 readiness*0.5
latest newest last recent: latest recent*0.6 last*0.5
oldest first earliest: first oldest*0.8
cancel abort: cancel delete*0.5 stop*0.5
stop halt: stop cancel*0.8 disable*0.6 delete*0.4
pause suspend freeze: suspend pause disable*0.5
resume unpause continue unfreeze: resume enable*0.5
trigger run execute fire dispatch: run trigger dispatch*0.6 execute*0.8 start*0.5
rerun retry restart redo: rerun retry restart run*0.8
ship land merge: merge
approve accept lgtm: approve accept*0.8 review*0.5
reject decline deny refuse: reject decline dismiss*0.5
close resolve finish complete done: close state*0.5 update*0.4 transition*0.4 resolution*0.4
reopen: reopen state*0.5 update*0.4
comment reply respond answer note remark feedback: comment reply*0.8 note*0.5
message chat dm: message chat post*0.5 comment*0.5
thread conversation discussion: thread conversation discussion comment*0.5
mention: mention
star favorite favourite bookmark: star
like upvote: vote*0.8 reaction*0.6 star*0.5
react emoji reaction: reaction
follow: follow follower*0.7 following*0.7
watch subscribe: watch subscription*0.8 subscribe watcher*0.7
unwatch unsubscribe: subscription delete*0.5 unsubscribe watch*0.5 unwatch watcher*0.6
block mute: block
lock: lock
assign: assign assignee*0.8 assignable*0.8
unassign: assign*0.9 assignee*0.8 remove*0.5
invite: invite invitation
transfer: transfer move*0.4
fork copy clone duplicate: fork copy*0.6 clone*0.6 duplicate*0.5
archive: archive archived*0.8 update*0.4
restore recover undelete: restore recover*0.8
download export: download export*0.8 archive*0.4 zip*0.4 tarball*0.3
render convert preview: render preview*0.6 convert*0.6
compare diff difference: compare diff
rotate renew regenerate: rotate update*0.5 regenerate*0.5 refresh*0.5
scale resize: scale replica*0.5
evict drain: evict eviction
exec shell ssh execute: exec command*0.5
forward tunnel portforward: portforward port*0.6 forward
send email mail notify: send email*0.6 notify*0.6
ticket tickets: issue*0.9
bug defect incident problem: bug issue*0.8
task todo: task issue*0.5 job*0.5
story epic: issue*0.7
tracker: issue*0.5
feature: feature issue*0.3
project: project repo*0.5
codebase: repo
company business: org account*0.5
workspace tenant: workspace org*0.6 team*0.5
team squad department: team group*0.6
group: group team*0.6
person someone somebody member guy colleague: user member*0.6 person
folk human individual teammate employee staff: user member*0.6 person
user: user member*0.5 account*0.4
account: account user*0.5
profile: profile user*0.5 account*0.5
owner: owner admin*0.4
admin maintainer: admin owner*0.5 maintainer
contributor: contributor collaborator*0.6
collaborator: collaborator member*0.5
label: label tag*0.4
tag: tag label*0.5 release*0.4
access permission privilege rights: permission access role*0.5 collaborator*0.4
role allowed entitlement capability: permission access role*0.5 collaborator*0.4
scope: scope permission*0.5
push: push write*0.5 permission*0.4
key: key token*0.5
token: token key*0.5 credential*0.4 secret*0.4
password: password secret*0.7 credential*0.6
credential: credential secret*0.6 token*0.5 key*0.4
secret: secret credential*0.5 password*0.4
login session: session login auth*0.5
file: file content*0.7 blob*0.4 document*0.4
document doc: document file*0.7
screenshot image picture photo pdf attachment: attachment file*0.6 image*0.8 upload*0.4
artifact asset: artifact asset release*0.3
archive zip tarball: archive zip tarball download*0.5
folder dir: dir folder path*0.5
snippet: gist snippet code*0.5
code source: code content*0.5
branch: branch ref*0.7 head*0.3
commit changeset revision sha: commit sha*0.4 revision*0.6
release: release version*0.5 tag*0.4
version: version release*0.5
logs log output stdout console trace: log
hook callback: hook endpoint*0.5 webhook
notification inbox: notification
alert alarm: alert notification*0.4 warning*0.4
setting settings preference preferences option options: setting config preference*0.6
variable var vars: variable env*0.4 config*0.4
env: env environment variable*0.4
stat metric metrics analytic analytics insight insights: stat metric traffic*0.5
traffic visitor visitors visit visits pageview pageviews: traffic view*0.6
rate limit quota: rate limit quota
money fund funds cash revenue earnings: balance fund*0.6 payout*0.4
refund reimburse reimbursement: refund
chargeback: dispute chargeback
customer client buyer shopper payer purchaser subscriber: customer
card: card payment_method*0.7 source*0.5
charge: charge payment*0.6
payment pay: payment charge*0.6 pay
transaction: transaction charge*0.4 payment*0.4 balance*0.4
subscription membership recurring: subscription
plan tier: plan price*0.6 subscription*0.4
invoice bill billing statement: invoice bill
receipt: receipt invoice*0.5 file*0.4
price pricing cost: price plan*0.5 amount*0.4
fee: fee charge*0.4
coupon discount voucher deal: coupon discount*0.7 promotion*0.6
promo promotion: promotion coupon*0.6 code*0.4
product item sku merchandise: product item*0.5 sku*0.4
sell catalog: product*0.7 price*0.4
payout withdrawal withdraw: payout
shipping delivery express: shipping delivery shipping_rate*0.8
tax vat gst: tax
order purchase: order checkout*0.4 invoice*0.3 purchase
cart checkout: checkout session*0.3
seller merchant vendor: account*0.7 connect*0.5
portal self-service: portal session*0.4
bank: bank account*0.4
pod pods: pod container*0.4
container containers: container pod*0.7
deployment deploy: deployment deploy
app: app application deployment*0.4
namespace ns: namespace
node machine server host vm worker: node machine server host
cluster: cluster all*0.4
config configmap: config configmap*0.8 setting*0.5
cron cronjob schedule scheduled nightly daily: cronjob cron schedule*0.7
hourly weekly monthly periodic periodically: cronjob cron schedule*0.7
job: job task*0.4
pipeline build ci: workflow*0.6 run*0.6 check*0.5 action*0.4 job*0.4
runner agent: runner agent
volume disk storage pv pvc: volume disk storage*0.6 persistentvolumeclaim*0.5
bucket: bucket storage*0.6
quota limit cap usage: quota limit*0.6 usage*0.5
ingress route routing domain hostname url: ingress route*0.8 host*0.5
dns: dns domain*0.6
firewall: networkpolicy network_policy*0.8 policy*0.4
service svc: service
event events warning warnings happening: event warning*0.6
history changelog audit: history changelog*0.8 event*0.5 log*0.4 revision*0.4
activity timeline feed: activity event*0.6 timeline*0.6 feed*0.6
replica replicas instance instances: replica instance
cert certificate tls ssl csr: certificate cert tls
worklog timesheet hours hour time: worklog time*0.6
move transition status state: transition status*0.6 state*0.6
blocker blocking blocked dependency depend depends: link*0.5 dependency block*0.5
link relate related: link relate*0.6 relation*0.6
field attribute property column: field attribute*0.6 property*0.6
priority severity urgency: priority
reporter author creator: reporter author creator
board sprint: board sprint
milestone: milestone version*0.4
channel room: channel room conversation*0.6
"""
