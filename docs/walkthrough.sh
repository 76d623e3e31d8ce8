#!/usr/bin/env bash
# A short game recorded with curl: the README's walk-through, runnable as it stands.
# Needs a running `munchlog serve` (M = its URL, ORG = its organizer token) and python3 for
# picking fields out of the JSON answers.
set -euo pipefail
M=${M:-http://127.0.0.1:8000}
ORG=${ORG:?set ORG to the organizer token printed by munchlog serve}
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {'d': d}))" "$1"; }

# 1. The organizer creates a game: two seats, heroes and decks by card name (sample catalog).
curl -s -X POST "$M/api/games" -H "Authorization: Bearer $ORG" -H 'Content-Type: application/json' -d '{
  "ruleset": "munchkin-ccg", "mode": "strict", "format": "casual",
  "labels": {"event": "Friday Night", "round": 1, "table": 4},
  "seats": [
    {"seat": "A", "player": "alice", "hero": {"name": "Sample Orc Warrior"},
     "deck": [{"name": "Sample Goblin Horde", "count": 4}, {"name": "Sample Rusty Sword", "count": 4}]},
    {"seat": "B", "player": "bob", "hero": {"name": "Sample Gnome Thief"},
     "deck": [{"name": "Sample Loyal Squire", "count": 4}, {"name": "Sample Plant Pot", "count": 4}]}]}' > game.json
GAME=$(json 'd["game_id"]' < game.json)
TABLE=$(json 'd["table_token"]' < game.json)      # the table's device records both seats
B=$(json 'd["seats"]["B"]["token"]' < game.json)   # bob's own token: sees only what bob may
A_CARDS=$(json '[c["id"] for c in d["seats"]["A"]["cards"]]' < game.json)
B_CARDS=$(json '[c["id"] for c in d["seats"]["B"]["cards"]]' < game.json)
pick() { python3 -c "import ast,sys; print(ast.literal_eval(sys.argv[1])[int(sys.argv[2])])" "$1" "$2"; }
six() { python3 -c "import ast,json,sys; print(json.dumps(ast.literal_eval(sys.argv[1])[:6]))" "$1"; }
post() { curl -s -X POST "$M/api/games/$GAME/actions" -H "Authorization: Bearer $TABLE" \
  -H 'Content-Type: application/json' -d "$1"; echo; }

# 2. Setup (docs/rules.md A.7): opening hands, the roll for first player, the choice, mulligans.
#    Alice's opening hand is the 4 Goblins and 2 Swords. The turn starts and stops at her draw.
post '{"actions": [
  {"type": "draw_opening", "seat": "A", "cards": '"$(six "$A_CARDS")"'},
  {"type": "draw_opening", "seat": "B", "cards": '"$(six "$B_CARDS")"'},
  {"type": "roll_first", "seat": "A", "rolls": {"A": 5, "B": 2}},
  {"type": "choose_first", "seat": "A", "first": "A"},
  {"type": "keep", "seat": "A"}, {"type": "keep", "seat": "B"}]}' > /dev/null

# 3. Alice draws, then attacks with a face-down Goblin Horde (cost 2) and only 1 gold: a bluff.
GOBLIN=$(pick "$A_CARDS" 0)
post '{"actions": [{"type": "draw", "seat": "A", "card": "'"$(pick "$A_CARDS" 6)"'"},
                   {"type": "attack", "seat": "A", "card": "'"$GOBLIN"'", "gold": 1}]}' > /dev/null

# 4. What bob sees now: the attack card is a commitment hash, not a card.
curl -s "$M/api/games/$GAME/state" -H "Authorization: Bearer $B" | json 'd["fight"]["attack_card"]'

# 5. Bob faces the monster; alice reveals; both pass: she is caught cheating. The 1 damage is
#    announced first (a window for interrupts such as Prevent); both pass again and it is dealt.
post '{"actions": [{"type": "face", "seat": "B"}, {"type": "ready", "seat": "B"},
                   {"type": "reveal", "seat": "A"},
                   {"type": "pass", "seat": "A"}, {"type": "pass", "seat": "B"},
                   {"type": "pass", "seat": "A"}, {"type": "pass", "seat": "B"}]}' \
  | json '[e["type"] for e in d["events"]]'

# 6. An illegal action is refused with the rule and changes nothing (422).
post '{"actions": [{"type": "play", "seat": "B", "card": "'"$(pick "$B_CARDS" 0)"'"}]}'

# 7. Alice ends her turn, bob concedes; the log as a spectator (no token) may read it.
post '{"actions": [{"type": "end_turn", "seat": "A"}, {"type": "concede", "seat": "B"}]}' > /dev/null
curl -s "$M/api/games/$GAME/state" | json '(d["status"], d["winner"], d["seats"]["A"]["damage"])'
curl -s "$M/api/games/$GAME/events?limit=3" | json '[e["type"] for e in d["events"]]'

# 8. A game the server deals (docs/dealing.md): each seat commits to 32 random bytes, then
#    reveals them; draws and rolls name no card or value, one a batch.
curl -s -X POST "$M/api/games" -H "Authorization: Bearer $ORG" -H 'Content-Type: application/json' -d '{
  "ruleset": "munchkin-ccg", "mode": "strict", "format": "casual", "dealing": "server", "seats": [
    {"seat": "A", "player": "carol", "hero": {"name": "Sample Orc Warrior"}, "deck": [{"name": "Sample Goblin Horde", "count": 8}]},
    {"seat": "B", "player": "dave", "hero": {"name": "Sample Gnome Thief"}, "deck": [{"name": "Sample Plant Pot", "count": 8}]}]}' > dealt.json
GAME=$(json 'd["game_id"]' < dealt.json); TABLE=$(json 'd["table_token"]' < dealt.json)
SEED_A=$(python3 -c 'import secrets; print(secrets.token_hex(32))'); SEED_B=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
commit() { python3 -c 'import hashlib,sys; game, seat, seed = sys.argv[1:]
print(hashlib.sha256(f"munchlog-rand-v1|seat|{game}|{seat}|".encode() + bytes.fromhex(seed)).hexdigest())' "$GAME" "$@"; }
post '{"actions": [{"type": "commit_seed", "seat": "A", "commitment": "'"$(commit A "$SEED_A")"'"},
                   {"type": "commit_seed", "seat": "B", "commitment": "'"$(commit B "$SEED_B")"'"}]}' > /dev/null
post '{"actions": [{"type": "reveal_seed", "seat": "A", "seed": "'"$SEED_A"'"},
                   {"type": "reveal_seed", "seat": "B", "seed": "'"$SEED_B"'"}]}' > /dev/null
for s in A B; do post '{"actions":[{"type":"draw_opening","seat":"'$s'"}]}' >/dev/null; done
post '{"actions":[{"type":"roll_first","seat":"A"}]}' | json '[e["type"] for e in d["events"]]'
curl -s "$M/api/games/$GAME" | json '{k: d["dealing"][k] for k in ("mode", "contributors", "revealed")}'

# 9. B concedes: the server's secret is revealed; anyone can now re-derive every deal and roll.
post '{"actions": [{"type": "concede", "seat": "B"}]}' > /dev/null
curl -s "$M/api/games/$GAME/verify" | json '{k: d["dealing"][k] for k in ("ok", "complete", "checked")}'
