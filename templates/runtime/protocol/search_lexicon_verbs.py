"""The general lexicon's verbs: how people say what they want done (see ``search_lexicon.py``)."""

# a user's verb -> the words APIs use for that action
VERBS = """
delete: remove*0.9 destroy*0.7 purge*0.5 terminate*0.5
remove: delete*0.9 detach*0.5 unassign*0.4
kill: terminate*0.9 stop*0.8 cancel*0.7 abort*0.6 delete*0.6
cordon uncordon: unschedulable*0.8 update*0.7 node*0.6
nuke zap obliterate annihilate: delete*1.0 destroy*0.8 remove*0.8 purge*0.6
ditch scrap axe bin junk toss chuck: delete*0.9 remove*0.9 discard*0.6 cancel*0.4
trash: delete*0.9 remove*0.8
drop: delete*0.7 remove*0.8
erase eliminate: delete*1.0 remove*0.9 purge*0.5
discard: delete*0.8 remove*0.7 cancel*0.5
destroy: delete*1.0 terminate*0.7 remove*0.7
shred torch: delete*0.9 destroy*0.8 purge*0.7
wipe: delete*0.8 purge*0.8 clear*0.8 reset*0.5
clear: purge*0.7 delete*0.7 reset*0.6 remove*0.5
purge: delete*0.8 clear*0.7 invalidate*0.6 prune*0.5
prune: delete*0.6 cleanup*0.6 remove*0.5
tidy declutter: prune*0.6 cleanup*0.6 archive*0.4 delete*0.4
clean: cleanup*0.7 prune*0.7 clear*0.5 purge*0.5 delete*0.5
cleanup: prune*0.8 delete*0.6 purge*0.6
uninstall: remove*0.8 delete*0.6 disconnect*0.5
yank: unpublish*0.8 remove*0.7 delete*0.6 revoke*0.4
nix: reject*0.7 cancel*0.7 delete*0.6
scratch: cancel*0.6 delete*0.6 discard*0.5
create: add*0.8 insert*0.4 generate*0.4
add: create*0.8 insert*0.5 attach*0.5 append*0.5
make: create*0.9 add*0.7 generate*0.5
generate: create*0.8
build: create*0.5 pipeline*0.5 run*0.5
craft author: create*0.9 draft*0.5
compose: create*0.8 draft*0.5 send*0.5
draft: create*0.7
write: create*0.6 update*0.5 put*0.4
jot: create*0.6 add*0.6 note*0.6 comment*0.5
submit: create*0.7 send*0.5
register: create*0.8 signup*0.6 add*0.6 enroll*0.5
enroll enrol: register*0.8 add*0.7 create*0.5 subscribe*0.5 invite*0.5
mint: generate*0.9 create*0.7
provision: create*0.8 allocate*0.6 launch*0.6 deploy*0.5
instantiate establish: create*0.9 launch*0.5
setup: configure*0.8 create*0.7 install*0.6
spin: create*0.6 launch*0.6 start*0.6 provision*0.5
launch: start*0.8 run*0.7 create*0.6 deploy*0.5
start: run*0.7 launch*0.7 resume*0.5 trigger*0.5 create*0.4
initiate: start*0.8 create*0.6 trigger*0.5
begin commence: start*0.9 initiate*0.6 create*0.5
run: execute*0.8 trigger*0.7 start*0.6 dispatch*0.5 create*0.4
execute: run*0.8 invoke*0.6 trigger*0.6
invoke: run*0.7 execute*0.7 trigger*0.6 call*0.6
trigger: dispatch*0.8 run*0.7 start*0.6 invoke*0.5
fire: trigger*0.7 send*0.6 dispatch*0.6 deactivate*0.4 remove*0.4
kick: remove*0.7 trigger*0.5 restart*0.5 rerun*0.5 ban*0.4
boot: kick*0.7 remove*0.6 start*0.5 ban*0.4
rerun: retry*0.8 run*0.6 restart*0.6
retry: rerun*0.8 resend*0.6 redeliver*0.6 run*0.5
redo: rerun*0.8 retry*0.8
repeat: rerun*0.6 retry*0.6 duplicate*0.5
loop: repeat*0.8
replay: redeliver*0.7 rerun*0.6 retry*0.6
resend: redeliver*0.8 send*0.7 retry*0.6
redeliver: resend*0.8 retry*0.6
rebuild: build*0.7 rerun*0.7 redeploy*0.6
redeploy: deploy*0.9 rollout*0.7 restart*0.6 rebuild*0.5
restart: reboot*0.8 rollout*0.5 rerun*0.5
reboot: restart*0.9
bounce: restart*0.8 reboot*0.7
cycle: restart*0.6 reboot*0.5 rotate*0.5
recycle: restart*0.7 replace*0.5 delete*0.4
reload: refresh*0.8 restart*0.6
refresh: sync*0.7 reload*0.7 update*0.4 rotate*0.4
reset: clear*0.6 regenerate*0.5 restore*0.4
rotate: regenerate*0.8 renew*0.6 reset*0.6 roll*0.6
roll: rotate*0.8 regenerate*0.7 rollout*0.6 restart*0.5
regenerate: rotate*0.8 generate*0.6 reset*0.6
reissue: regenerate*0.8 rotate*0.7 renew*0.6 resend*0.6
rekey: rotate*0.9 regenerate*0.7
renew: extend*0.8 rotate*0.5 update*0.5
extend: renew*0.7 update*0.5 increase*0.4
prolong lengthen: extend*0.9 renew*0.6 update*0.5
change modify alter amend revise: update*1.0 patch*0.8 edit*0.8 set*0.5 replace*0.4
edit: update*0.9 patch*0.8 modify*0.5
update: patch*0.8 edit*0.7 modify*0.6 put*0.4
patch: update*0.9 upgrade*0.4
tweak adjust tune: update*0.9 patch*0.7 edit*0.6 configure*0.5
fix correct repair mend: update*0.6 resolve*0.6 patch*0.5 edit*0.5
set: update*0.8 configure*0.6 put*0.5 assign*0.4
configure: update*0.8 set*0.7 settings*0.6
rename: update*0.7
retitle reword relabel: update*0.9 rename*0.8 edit*0.7
bump: increment*0.7 update*0.6 increase*0.6 upgrade*0.5
raise: create*0.6 increase*0.6 update*0.5
increase: increment*0.6 update*0.6 scale*0.6 resize*0.5
boost grow enlarge upsize: increase*0.8 scale*0.7 resize*0.7 update*0.5
expand: resize*0.6 increase*0.6 extend*0.5
decrease: decrement*0.7 reduce*0.7 scale*0.6 resize*0.5 update*0.5
lower reduce shrink downsize: decrease*0.8 scale*0.7 resize*0.7 update*0.5
trim: prune*0.6 truncate*0.6 decrease*0.5 delete*0.4
cut: create*0.5 decrease*0.5 delete*0.4
resize: scale*0.8 update*0.5
scale: resize*0.8 update*0.5
autoscale: scale*0.8 autoscaler*0.8 autoscaling*0.7
reschedule: update*0.6 move*0.5
postpone delay: reschedule*0.9 snooze*0.6 update*0.5 pause*0.4
defer: reschedule*0.6 snooze*0.6 pause*0.5
snooze: mute*0.6 pause*0.6 remind*0.4
push: send*0.6 deploy*0.5 publish*0.5 notify*0.5
upgrade: update*0.7
downgrade: update*0.6 demote*0.4
migrate: move*0.8 transfer*0.6 import*0.5 convert*0.4
move: transfer*0.7 migrate*0.5 reorder*0.5
relocate: move*0.9 transfer*0.7
convert: transform*0.6
transform: convert*0.7
reformat: convert*0.7 format*0.6
transcode: convert*0.6 encode*0.6
sync: synchronize*0.9 refresh*0.6
synchronize synchronise resync: sync*1.0 refresh*0.6
mirror: sync*0.7 replicate*0.7 copy*0.6
overwrite: replace*0.9 update*0.7 put*0.6
replace: update*0.6 put*0.5
swap substitute: replace*0.9 update*0.6 switch*0.5
switch: update*0.6 replace*0.5 toggle*0.5 migrate*0.4
flip: toggle*0.8 enable*0.5 disable*0.5 update*0.5
toggle: enable*0.7 disable*0.7 update*0.5
enable: activate*0.8 allow*0.5
activate: enable*0.9 resume*0.4 start*0.4
disable: deactivate*0.8 suspend*0.6 block*0.4
deactivate: disable*0.9 suspend*0.7
combine consolidate unify: merge*0.9
squash: merge*0.7
fold: merge*0.5
join: add*0.5 accept*0.5 subscribe*0.4
dedupe dedup deduplicate: merge*0.7 duplicate*0.7 delete*0.4
duplicate: copy*0.8 clone*0.8
clone: copy*0.8 duplicate*0.7 fork*0.6
copy: duplicate*0.7 clone*0.7
fork: copy*0.6 clone*0.6
replicate: copy*0.7 clone*0.6 replica*0.5
show display: get*0.9 list*0.8 describe*0.6 view*0.5
view see: get*0.9 list*0.7 describe*0.6
fetch retrieve obtain: get*1.0 list*0.6 download*0.4
grab: get*0.8 fetch*0.7 download*0.6 list*0.5 claim*0.4
snag: get*0.7 claim*0.5 download*0.5
pull: download*0.7 get*0.6 fetch*0.6 import*0.4
read: get*0.8 list*0.5 download*0.4
peek: get*0.7 preview*0.6 describe*0.5
inspect: describe*0.8 get*0.8
examine: get*0.8 describe*0.7 inspect*0.7
describe: get*0.9 inspect*0.5
explain: describe*0.6 get*0.5
investigate: get*0.6 describe*0.6 inspect*0.6 logs*0.4
check: get*0.6 status*0.6 verify*0.5 validate*0.4
lookup: search*0.8 get*0.8 find*0.6
find: search*0.9 list*0.6 get*0.6 query*0.5
locate: search*0.9 find*0.8 get*0.6
search: find*0.7 query*0.7 list*0.6 filter*0.5
hunt: search*0.8 find*0.7
browse: list*0.9 search*0.6 get*0.5
list: get*0.6 search*0.4
enumerate: list*1.0
count: list*0.5 summary*0.4
tally: count*0.9 list*0.5
query: search*0.8 list*0.6 filter*0.5 get*0.5
filter: search*0.7 list*0.6 query*0.6
sort: list*0.5 reorder*0.5
rank: sort*0.7 reorder*0.6 priority*0.5
prioritize prioritise: priority*0.8 rank*0.7 reorder*0.6 update*0.5
reorder: move*0.7 sort*0.6 rank*0.5
arrange rearrange organize organise: reorder*0.7 move*0.7 sort*0.6
compare: diff*0.8
diff: compare*0.9
preview: get*0.6 render*0.6 draft*0.4
test: validate*0.6 ping*0.5 check*0.5
try: test*0.6 retry*0.5 preview*0.4
validate: verify*0.8 check*0.6 lint*0.5 test*0.5
verify: validate*0.8 confirm*0.7 check*0.6
confirm: verify*0.7 approve*0.5 accept*0.5 acknowledge*0.5
calculate: compute*0.7 estimate*0.6 preview*0.5
compute: calculate*0.8 estimate*0.6
estimate: calculate*0.6 preview*0.6 quote*0.6
monitor: watch*0.7 subscribe*0.5 get*0.5 status*0.5 metrics*0.5
track: tracking*0.7 watch*0.6 follow*0.5 get*0.5
observe: watch*0.7 monitor*0.7 get*0.5
audit: logs*0.6 events*0.5 list*0.5
scan: analyze*0.6 check*0.5 search*0.4
analyze: analysis*0.7 report*0.6 insights*0.6 stats*0.5
analyse: analyze*1.0 analysis*0.7 report*0.5
summarize summarise: summary*0.8 report*0.6 aggregate*0.6 stats*0.5
debug troubleshoot diagnose: diagnostics*0.7 logs*0.6 describe*0.5 events*0.5
render: preview*0.7 generate*0.6
reconcile: sync*0.6 match*0.5
download: export*0.6 get*0.5 pull*0.5
save: update*0.6 create*0.6 store*0.5 download*0.4
dump: export*0.7 download*0.6 backup*0.5
export: download*0.7 backup*0.4
print: export*0.6 download*0.6 render*0.5 pdf*0.5
backup: snapshot*0.8 export*0.6
snapshot: backup*0.8 image*0.4
upload: put*0.6 attach*0.6 import*0.6 create*0.4
import: upload*0.7 ingest*0.6 load*0.5
load: import*0.7 upload*0.6 get*0.5
ingest: import*0.8 upload*0.7
put: update*0.6 upload*0.6 replace*0.5 set*0.5
pause: suspend*0.8 stop*0.6 disable*0.5 hold*0.5
freeze: lock*0.8 suspend*0.8 pause*0.6 disable*0.6
thaw unfreeze: unlock*0.8 resume*0.7 unsuspend*0.7 enable*0.6 reactivate*0.6
halt: stop*0.9 pause*0.7 cancel*0.6
stop: cancel*0.6 pause*0.6 disable*0.5 terminate*0.5 shutdown*0.5
hold: pause*0.7 suspend*0.6
park: pause*0.6 snooze*0.5 archive*0.5 backlog*0.5
shelve: archive*0.7 pause*0.6 backlog*0.5
stash: archive*0.6 save*0.5
bury: archive*0.6 hide*0.6
mothball: archive*0.8 suspend*0.6 disable*0.6 stop*0.5
retire: archive*0.7 deprecate*0.6 disable*0.6 deactivate*0.6 delete*0.4
sunset: deprecate*0.8 archive*0.7 disable*0.6 delete*0.4
deprecate: archive*0.6 disable*0.5
decommission: terminate*0.7 delete*0.7 disable*0.6 deprovision*0.6 archive*0.5
hibernate: stop*0.7 suspend*0.7 pause*0.6
sleep: suspend*0.6 hibernate*0.6 stop*0.5 pause*0.5
wake: start*0.7 resume*0.7
shutdown: stop*0.8 poweroff*0.7 terminate*0.4
resume: unpause*0.8 start*0.6 continue*0.5
unpause: resume*0.9 start*0.5
continue proceed: resume*0.8 start*0.4
restore: recover*0.7 undelete*0.7 unarchive*0.7 revert*0.4
resurrect revive: restore*0.9 undelete*0.7 unarchive*0.7 reopen*0.6 reactivate*0.6
recover: restore*0.9 undelete*0.7
undelete untrash: restore*0.9 recover*0.6
unarchive: restore*0.8 reopen*0.5
reinstate: restore*0.8 reactivate*0.8 unsuspend*0.7 unban*0.6 enable*0.6
reactivate: activate*0.8 enable*0.7 restore*0.6 unsuspend*0.6 reopen*0.5
undo: revert*0.8 rollback*0.8 restore*0.6
revert: rollback*0.8 restore*0.5
rollback: revert*0.8 restore*0.5
unresolve: reopen*0.8
revisit: reopen*0.5 get*0.5
hide: minimize*0.6 archive*0.5 mute*0.4
unhide: unminimize*0.6 restore*0.5 unarchive*0.5
secure: protect*0.6 lock*0.5 encrypt*0.5
protect: lock*0.7 restrict*0.6
guard: protect*0.7 lock*0.5
seal: lock*0.6
unprotect: unlock*0.7
restrict: limit*0.6 block*0.5 protect*0.5
limit: restrict*0.6 quota*0.5 throttle*0.5
throttle: limit*0.7 restrict*0.5
cap: limit*0.7 quota*0.6
close: resolve*0.7 complete*0.6 archive*0.4
resolve: close*0.8 complete*0.6
complete: close*0.7 resolve*0.7 finalize*0.6
finish conclude: complete*0.8 close*0.7 finalize*0.6 end*0.5
finalize: complete*0.7 close*0.6
finalise: finalize*1.0 complete*0.7 close*0.6
end: stop*0.7 close*0.6 terminate*0.6 cancel*0.5
settle: pay*0.8 capture*0.6 resolve*0.5 close*0.5
cancel: abort*0.7 void*0.5 stop*0.5 terminate*0.5
abort: cancel*0.8 stop*0.7 terminate*0.6
scrub: redact*0.6 cancel*0.5 purge*0.5 delete*0.5
void: cancel*0.8 invalidate*0.6
nullify annul: void*0.8 cancel*0.8 revoke*0.6
invalidate: revoke*0.7 expire*0.6 purge*0.5
rescind: revoke*0.9 cancel*0.8 void*0.6 delete*0.5
retract: revoke*0.7 unpublish*0.6 cancel*0.5 delete*0.5
withdraw: payout*0.7 unpublish*0.5 revoke*0.5 cancel*0.5
revoke: delete*0.6 invalidate*0.5 remove*0.5
expire: revoke*0.7 invalidate*0.6
deauthorize: revoke*0.8 disconnect*0.6 uninstall*0.5
terminate: stop*0.7 delete*0.6 cancel*0.6
quit: leave*0.7 stop*0.6 cancel*0.5
exit: leave*0.8 stop*0.6
leave: remove*0.5 unsubscribe*0.4
unsubscribe: unfollow*0.7 unwatch*0.7 suppression*0.5
grant: add*0.6 assign*0.6 authorize*0.6 share*0.4
give: grant*0.6 assign*0.6 add*0.6 transfer*0.5
allow: grant*0.7 enable*0.6 authorize*0.6 allowlist*0.5
permit: allow*0.8 grant*0.7 authorize*0.7
authorize: grant*0.7 approve*0.6 allow*0.6
authorise: authorize*1.0 grant*0.6 approve*0.5
deny: reject*0.8 block*0.6
refuse: reject*0.9 decline*0.8 deny*0.8
decline: reject*0.9 deny*0.7
reject: decline*0.8 deny*0.8 dismiss*0.5
veto: reject*0.9 decline*0.7 deny*0.7 block*0.5
forbid disallow: deny*0.8 block*0.7 restrict*0.6
bar: ban*0.8 block*0.8 deny*0.6
ban: block*0.8 suspend*0.6
blacklist blocklist denylist: block*0.9 ban*0.7 deny*0.7
unban: unblock*0.8 unsuspend*0.6
unblock: unban*0.8 allow*0.6
whitelist allowlist: allow*0.8 add*0.6 trust*0.5
approve: accept*0.7 authorize*0.5 confirm*0.5
okay ok greenlight bless endorse lgtm: approve*1.0 accept*0.7
sign: approve*0.6 signature*0.6
stamp: approve*0.8 sign*0.5
accept: approve*0.8 confirm*0.6 join*0.4
acknowledge: ack*0.7 confirm*0.6
ack: acknowledge*1.0 confirm*0.6 resolve*0.3
dismiss: close*0.6 reject*0.6 ignore*0.6 acknowledge*0.4
ignore: dismiss*0.7 mute*0.6 snooze*0.5
delegate: assign*0.9 reassign*0.7 transfer*0.6
hand: transfer*0.8 assign*0.7
pass: transfer*0.7 assign*0.7 forward*0.6
route: assign*0.6 forward*0.6 transfer*0.6
reassign: assign*0.9 transfer*0.7
forward: transfer*0.7 send*0.6 redirect*0.6
transfer: move*0.7 assign*0.5
unassign: remove*0.6
claim: assign*0.7 redeem*0.5
pick: select*0.6 assign*0.5 claim*0.5
choose: select*0.7 set*0.5
escalate: reassign*0.6 notify*0.5 update*0.4 priority*0.4
triage: label*0.6 assign*0.6 priority*0.5
punt: reschedule*0.6 snooze*0.5 move*0.5 unassign*0.4
invite: add*0.7
onboard: invite*0.8 create*0.7 add*0.7 provision*0.6 activate*0.6
offboard: deactivate*0.8 remove*0.8 suspend*0.7 deprovision*0.6 delete*0.6 revoke*0.5
hire recruit enlist: invite*0.7 add*0.7 create*0.5
include: add*0.7 attach*0.5
oust expel banish: remove*1.0 kick*0.8 ban*0.6
eject: remove*0.8 kick*0.7 detach*0.6
evict: eviction*0.8 remove*0.7 drain*0.5
exclude: remove*0.6 ignore*0.5 filter*0.5
drain: evict*0.6 cordon*0.6
quarantine: isolate*0.8 block*0.6 suspend*0.6
isolate: quarantine*0.8 block*0.5
promote: upgrade*0.6 grant*0.5 deploy*0.5 role*0.4
elevate: promote*0.8 grant*0.7 upgrade*0.6 escalate*0.5
demote: downgrade*0.7 revoke*0.6 update*0.5 role*0.4
attach: link*0.7 associate*0.7 add*0.6 mount*0.5
connect: link*0.7 attach*0.6 associate*0.6 integrate*0.5 install*0.4
associate: link*0.8 attach*0.7
bind: binding*0.7 attach*0.7 link*0.6 assign*0.5
tie: link*0.7 associate*0.7 attach*0.6
pair: link*0.7 connect*0.7
integrate: connect*0.7 install*0.6 link*0.5
mount: attach*0.8
plug: connect*0.7 attach*0.6 install*0.5
detach: unlink*0.7 disassociate*0.7 remove*0.6 unmount*0.5
disconnect: unlink*0.7 detach*0.7 revoke*0.5 uninstall*0.5
unlink: detach*0.7 disassociate*0.7 remove*0.6
dissociate: disassociate*1.0 unlink*0.8 detach*0.8
disassociate: unlink*0.8 detach*0.8
decouple untie unplug separate: detach*0.8 unlink*0.8 disconnect*0.7 disassociate*0.6
unbind: detach*0.7 unlink*0.7
unmount: detach*0.8
categorize categorise classify: label*0.9 tag*0.9 category*0.7
tag: label*0.8 mention*0.5
label: tag*0.8
flag: report*0.6 label*0.6 mark*0.6
mark: label*0.6 set*0.5 update*0.5
annotate: annotation*0.7 comment*0.7 label*0.6 tag*0.6
untag: remove*0.6 delete*0.5
unlabel: untag*0.8 remove*0.6
reply: comment*0.8 respond*0.7 send*0.5
respond: reply*0.9 comment*0.7
answer: reply*0.8 comment*0.6 accept*0.4
remark: comment*0.8
chime: comment*0.6 reply*0.6
comment: reply*0.6 note*0.6
mention: notify*0.6 tag*0.5
react: reaction*0.8 emoji*0.5
like: react*0.6 favorite*0.6 star*0.5 upvote*0.5
heart: react*0.7 favorite*0.6 like*0.6
upvote: vote*0.8 react*0.7 like*0.6
downvote: vote*0.8 react*0.7
vote: react*0.6
favorite: star*0.8 bookmark*0.7 like*0.6
favourite fave fav: favorite*1.0 star*0.8 bookmark*0.7 like*0.6
bookmark: favorite*0.7 star*0.7 save*0.6
star: favorite*0.7 bookmark*0.6
unlike: unfavorite*0.7 unstar*0.6 remove*0.5
unfavorite: unstar*0.8 remove*0.5
unfavourite: unfavorite*1.0 unstar*0.8
follow: subscribe*0.7 watch*0.7 star*0.4
watch: subscribe*0.8 follow*0.6 monitor*0.5
subscribe: follow*0.7 watch*0.7
unfollow: unsubscribe*0.7 unwatch*0.7
unwatch: unsubscribe*0.8 unfollow*0.7
notify: notification*0.8 send*0.7 alert*0.7
alert: notify*0.7 alarm*0.7 send*0.5
poke nudge: remind*0.8 notify*0.7 ping*0.5
ping: notify*0.6 message*0.6 mention*0.5
remind: reminder*0.8 notify*0.8
tell inform: notify*0.8 send*0.6 message*0.6 comment*0.6
warn: notify*0.7 alert*0.7 warning*0.6
buzz: notify*0.7 call*0.5 message*0.5
announce: publish*0.7 notify*0.6 broadcast*0.6 send*0.5
broadcast: send*0.8 publish*0.7 notify*0.6
blast: broadcast*0.8 send*0.7 campaign*0.6
send: deliver*0.6 dispatch*0.5
deliver: send*0.8
transmit: send*0.9
shoot: send*0.7
share: grant*0.5 invite*0.5 permission*0.5 publish*0.4 send*0.4
unshare: revoke*0.7 remove*0.6 permission*0.5
dial: call*0.9
call: invoke*0.5 dial*0.5
mute: silence*0.8 snooze*0.6 disable*0.4
silence: mute*0.9 snooze*0.6
hush shush gag muzzle: mute*1.0 silence*0.8 timeout*0.6 snooze*0.5
pay: payment*0.7 charge*0.6
remit: pay*0.8 payout*0.6 transfer*0.6
wire: transfer*0.9 payout*0.7 send*0.5
charge: bill*0.7 capture*0.6 payment*0.6 pay*0.5
bill: invoice*0.8 charge*0.7
collect: charge*0.7 capture*0.7
capture: charge*0.7
reimburse: refund*0.9 payout*0.6
comp: credit*0.7 refund*0.6 discount*0.6
deduct: charge*0.7 debit*0.7 decrement*0.5
debit: charge*0.8
deposit: topup*0.7 add*0.5 credit*0.5 fund*0.5
buy: purchase*0.9 order*0.7 checkout*0.6 create*0.4
purchase: order*0.6 checkout*0.6 create*0.4
redeem: apply*0.6 claim*0.6
apply: update*0.5 create*0.4 redeem*0.4
book: reserve*0.7 create*0.7 schedule*0.7
reserve: allocate*0.7 book*0.7 hold*0.6 create*0.5
allocate: reserve*0.7 assign*0.6 create*0.5
ship: deploy*0.9 release*0.9 publish*0.7 fulfill*0.6 send*0.5
release: publish*0.6 deploy*0.6 deallocate*0.4
publish: release*0.7 deploy*0.5
unpublish: hide*0.5 delete*0.5 archive*0.4
rollout: deploy*0.7 release*0.6
hotfix: patch*0.7 release*0.5 deploy*0.5
backport: cherry_pick*0.8 merge*0.5
cherrypick: cherry_pick*1.0
rebase: update*0.5 merge*0.5
install: add*0.6 deploy*0.5 enable*0.5
automate: automation*0.7 workflow*0.6 schedule*0.6 trigger*0.5
play: playback*0.6 start*0.6 stream*0.5
listen: play*0.7 playback*0.5
stream: play*0.7
skip: next*0.6 ignore*0.5
rewind: seek*0.7 previous*0.6
recommend: recommendations*0.8 suggest*0.6
suggest: recommendations*0.6 suggestion*0.6 autocomplete*0.5
redact: mask*0.8
mask: redact*0.9 anonymize*0.6
anonymize anonymise obfuscate: redact*0.9 mask*0.8
censor: redact*0.7 hide*0.6 delete*0.5
login: authenticate*0.8 signin*0.7 session*0.6 token*0.6
logon: login*1.0 authenticate*0.8
authenticate: login*0.8 token*0.6 verify*0.5
logout: signout*0.8 revoke*0.6 session*0.5
logoff: logout*1.0 signout*0.8
"""
