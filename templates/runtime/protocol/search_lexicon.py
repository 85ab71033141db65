"""A general lexicon of how people ask an API for things: their verbs, nouns and idioms.

Written once from general knowledge of APIs across domains (code hosts, trackers, payments,
messaging, clusters, clouds, identity, media), not from any API's operations nor from the search's
test phrasings, so that the search understands words nobody tuned it on ("nuke", "freeze", "hand
over", "dupe"). Read by ``search_vocabulary.py`` after the hand-tuned tables of ``search_words.py``,
which win where both speak of a word. The format is theirs: ``a b: x y*0.4 p_q`` (each of ``a b``
also finds ``x`` for 0.7 of a match, ``y`` for 0.4, ``p`` with ``q`` together); a phrase line is
``said words=meant words``. Words are written plainly; the parser stems them. The idioms are
here, the verbs in ``search_lexicon_verbs.py`` and the nouns in ``search_lexicon_nouns.py``. The
cue tables (``search_lexicon_cues.py``, ``_goals.py``, ``_tasks.py``, ``_areas.py``) say what two
or three words mean when said together (``grow + shrink: autoscaler``); they are used whether or
not the API uses the words.
"""

from .search_lexicon_areas import AREAS as AREAS  # noqa: PLC0414 - re-exported
from .search_lexicon_cues import CUES as CUES  # noqa: PLC0414 - re-exported
from .search_lexicon_goals import GOALS as GOALS  # noqa: PLC0414 - re-exported
from .search_lexicon_nouns import NOUNS as NOUNS  # noqa: PLC0414 - re-exported
from .search_lexicon_tasks import TASKS as TASKS  # noqa: PLC0414 - re-exported
from .search_lexicon_verbs import VERBS as VERBS  # noqa: PLC0414 - re-exported

# idioms and phrasal verbs -> what they mean, in API words
PHRASES = """
tear down=delete destroy
get rid of=delete remove
do away with=delete remove
blow away=delete destroy
throw away=delete discard
throw out=delete remove
clear out=delete purge clear
wipe out=delete purge
zero out=reset clear
clean up=cleanup prune delete
free up=delete release
take down=delete disable unpublish
pull the plug=cancel stop delete
open up=create
open a ticket=create issue
open an issue=create issue
open a pr=create pull_request
open a pull request=create pull_request
file a bug=create issue
file a ticket=create issue
log a bug=create issue
raise a ticket=create issue
set up=create configure
stand up=create provision deploy
spin up=create start launch provision
fire up=start launch
boot up=start
start up=start
power on=start poweron
turn on=enable start
switch on=enable start
kick off=trigger start run
fire off=send trigger
cut a release=create release
cut a branch=create branch
cut a tag=create tag
branch off=create branch
sign up=register signup create
sign up for=subscribe register
opt in=subscribe enable
shut off=disable stop
shut down=stop shutdown disable
switch off=disable stop
turn off=disable stop
power off=stop poweroff
power cycle=restart reboot
spin down=stop scale delete
stand down=stop disable scale
wind down=scale stop
put on hold=suspend pause hold
hold off=pause
put to sleep=hibernate suspend
wake up=start resume
call off=cancel
back out=cancel revert rollback
opt out=unsubscribe disable
scale up=scale increase
scale down=scale decrease
ramp up=scale increase
ramp down=scale decrease
dial back=decrease scale
bump up=increase upgrade
turn up=increase
turn down=decrease reject decline
push back=reschedule postpone
move up=reschedule reorder
fill in=update set
fill out=submit update
swap out=replace
switch over=migrate switch
move over=move transfer migrate
copy over=copy
carry over=move copy
roll back=rollback revert
roll out=rollout deploy release
roll over=rotate
go live=publish deploy release
push out=deploy release publish
ship it=deploy release
put back=restore
bring back=restore reopen
run again=rerun retry
try again=retry rerun
do over=rerun retry
start again=restart rerun
start over=reset restart
back up=backup snapshot export
look into=get describe
look up=search get find
dig up=search find get
dig into=get describe
pull up=get
pull down=download
check in on=get status
check on=get status
find out=get search
go through=list review
go over=review get
keep an eye on=watch subscribe monitor
keep tabs on=watch monitor
check out=checkout get
sign off on=approve
sign off=approve
thumbs up=approve react
thumbs down=reject react
let in=admit allow approve
shut out=block ban
lock out=lock suspend block
lock down=lock restrict protect
cut off=revoke disable block
take away=revoke remove
write off=uncollectible void
hand over=transfer assign
hand off=transfer assign reassign
take over=transfer assign
take on=assign claim
pick up=assign claim
loop in=add member invite
bring in=invite add import
kick out=remove kick ban
boot out=remove kick
let go=offboard deactivate remove
step down=leave remove demote
hook up=connect link integrate
link up=link connect
plug in=connect install
tie to=link associate
merge in=merge
fold into=merge
pull in=import add fetch
tack on=add append
drop a line=comment message
leave a comment=create comment
leave a note=create comment note
leave a review=create review
reach out=message contact
follow up=comment reminder message
ping back=reply
get back to=reply
write back=reply
chime in=comment reply
weigh in=comment review
send out=send broadcast
send over=send transfer
send back=return reject
send a text=send sms message
pass along=forward share
mark as done=complete close resolve
mark done=complete close
mark as read=mark read
mark as spam=spam report
mark as duplicate=duplicate close
check off=complete
cross off=complete
tick off=complete
wrap up=complete close finalize
close out=close complete
pencil in=schedule
book in=schedule book reserve
line up=schedule queue
queue up=enqueue queue
top up=topup add
pay out=payout
cash out=payout withdraw
pay back=refund
pay off=pay
give back=refund
charge back=chargeback dispute
log time=worklog time_entry
log hours=worklog time_entry
clock in=start timer time_entry
clock out=stop timer time_entry
sign in=login authenticate
log in=login authenticate
sign out=logout revoke
log out=logout
pull request=pull_request
merge request=merge_request
feature flag=feature_flag
credit card=card payment_method
api key=api_key
access token=access_token token
on call=oncall schedule
time off=time_off leave
out of office=out_of_office
due date=due_date
release notes=release changelog
load balancer=load_balancer
security group=security_group
recycle bin=trash
"""
