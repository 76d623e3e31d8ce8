/* The boards of the two game pages, for each family, and the small helpers both pages use.
 *
 * The CCG (seats, a fight, a response window and a stack) and classic Munchkin (docs/rules.md
 * B: 3-6 seats in seating order, a combat, the decks and discards between them), each drawn
 * by the replay viewer (viewer.js: a point of the game, laid out as a table) and by the table
 * page (table.js: the table as it stands, beside the moves). Everything shown is what the API
 * gave this viewer: another seat's hand is only its count. No HTML strings: el() (pages.js).
 *
 * window.munchlogBoards: words(), CARD_ID and collectNames() for both pages, viewer(ctx) ->
 * {drawBoard(state)} and table(ctx) -> {drawSeats(), drawHand(), drawWhere(), drawCenter()},
 * each over its page's `app` and the page's own phrasing of values (see each one).
 */
(function () {
  "use strict";
  const { el, plural } = window.munchlogPages;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ helpers
  // An identifier as words for people: "CardDrawn" -> "card drawn", "look_for_trouble" ->
  // "look for trouble"; nothing for null. Only for identifiers: names are shown as they are.
  function words(x) {
    if (x === null || x === undefined) return "";
    return String(x).replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])([A-Z][a-z])/g, "$1 $2").toLowerCase().trim();
  }
  const CARD_ID = /^[0-9a-f]{16}$/;
  // A card's text as a player reads it: the identifiers a catalog's text may hold in words
  // ("Bad Stuff: lose_levels 2, discard_hand True" -> "lose levels 2, discard hand").
  function plain(text) {
    return String(text || "").replace(/\b([a-z]+(?:_[a-z]+)+)\b( True\b)?/g, (m, id) => words(id)).replace(/ True\b/g, "");
  }
  // A card's title: its name and text
  function cardTitle(c, extra) { return c.name + (c.text ? ": " + plain(c.text) : "") + (extra || ""); }
  // The names of the cards a view was told about, by id, from anything the API gave it (an
  // event, a state, a diff): {id, name} and {card, name}. Only what the API gave.
  function collectNames(x, into, depth) {
    if (!x || typeof x !== "object" || depth > 12) return into;
    if (Array.isArray(x)) { for (const y of x) collectNames(y, into, depth + 1); return into; }
    if (typeof x.name === "string") {
      if (typeof x.id === "string") into[x.id] = x.name;
      if (typeof x.card === "string") into[x.card] = x.name;
    }
    for (const v of Object.values(x)) if (v && typeof v === "object") collectNames(v, into, depth + 1);
    return into;
  }
  // A zone: its name and its cards, in blocks (the viewer) or inline (the table page).
  function zoneBox(key, title, cards, inline) {
    const tag = inline ? "span" : "div";
    return el("div", { class: "zone", "data-zone": key }, [el(tag, { class: "zone-name", text: title }), el(tag, { class: "cards" }, cards)]);
  }

  // ================================================================== the replay viewer's board
  // ctx: app (the page's state: its seats, in seating order, are kept here), human(value) (a
  // value of an event as a short phrase) and seatColor(seat).
  function viewerBoard(ctx) {
    const app = ctx.app;
    const human = ctx.human;
    const seatColor = ctx.seatColor;
    function card(c, opts) {
      opts = opts || {};
      // A card the API names is one this viewer may see (its own stash face down, say): shown
      // by name and marked face down; a card without a name is only a back.
      if (!c || c.hidden || typeof c.name !== "string") {
        return el("div", { class: "c back", "data-hidden": "true", title: "face down" }, [el("span", { text: "?" })]);
      }
      const cls = ["c"];
      if (c.zapped) cls.push("zapped");
      if (c.face === "down" && !opts.inHand) cls.push("face-down");
      if (c.type === "hero") cls.push("hero");
      // The CCG's numbers in short; any other ruleset's numeric card fields as "name value".
      if (c.kind && c.deck) return classicCard(c, cls, opts);
      const stats = [c.power != null ? "power " + c.power : null, c.life != null ? "life " + c.life : null,
        c.cost != null ? "cost " + c.cost + " gold" : null, c.rank != null ? "rank " + c.rank : null,
        ...Object.entries(c).filter(([k, v]) => typeof v === "number" && !CARD_NUMBERS.includes(k)).map(([k, v]) => words(k) + " " + v),
      ].filter(Boolean).join(", ");
      return el("div", {
        class: cls.join(" "), "data-card-id": c.id, "data-name": c.name,
        title: cardTitle(c, c.face === "down" ? " (face down)" : ""),
      }, [
        el("span", { class: "n", text: c.name }),
        // a card that is not the catalog's (a casual game's own card, docs/cards.md)
        c.custom ? el("span", { class: "badge custom", "data-badge": "custom", title: "custom card: not the catalog's", text: "custom" }) : null,
        el("span", { class: "t", text: words(c.subtype || c.type || "") + (stats ? " · " + stats : "") }),
        c.face === "down" && !opts.inHand ? el("span", { class: "fd", text: "face down" }) : null,
        c.damage ? el("span", { class: "dmg", text: c.damage }) : null,
      ]);
    }
    // A classic card (docs/rules.md B): its kind and the numbers a player looks for.
    const SLOTS = { "1hand": "one hand", "2hands": "two hands" };
    function classicLine(c) {
      const plus = (n) => (n > 0 ? "+" + n : n < 0 ? String(n) : null);
      const bits = [c.kind === "item" && c.slot ? SLOTS[c.slot] || words(c.slot) : words(c.kind)];
      if (c.kind === "monster") bits.push("level " + c.level, c.treasures != null ? plural(c.treasures, "treasure") : null);
      else if (["race", "class", "army"].includes(c.kind)) bits.push(c.trait && c.trait !== c.name ? c.trait : null);
      else bits.push(plus(c.bonus));
      if (c.big) bits.push("big");
      if (c.value) bits.push("worth " + c.value + " gold");
      return bits.filter(Boolean).join(" · ");
    }
    function classicCard(c, cls, opts) {
      cls.push("k-" + String(c.deck));
      return el("div", {
        class: cls.join(" "), "data-card-id": c.id, "data-name": c.name,
        title: cardTitle(c, c.face === "down" && !opts.inHand ? " (face down)" : ""),
      }, [
        el("span", { class: "n", text: c.name }),
        c.custom ? el("span", { class: "badge custom", "data-badge": "custom", title: "custom card: not the catalog's", text: "custom" }) : null,
        el("span", { class: "t", text: classicLine(c) }),
        c.face === "down" && !opts.inHand ? el("span", { class: "fd", text: "face down" }) : null,
      ]);
    }
    // a zone of a seat ("A-hand"), of the fight or of the decks, its cards as they are given
    function zone(seat, name, cards, extra) { return zoneBox(seat + "-" + name, name.replace(/_/g, " ") + (extra || ""), cards); }
    const CARD_NUMBERS = ["power", "life", "cost", "rank", "defense", "damage", "tokens", "cost_modified"];
    // Zones in the order the board shows them; any other zone of a ruleset follows, by name.
    const ZONE_ORDER = ["hero", "hand", "hoard", "stash", "discard", "removed"];
    // Seat fields that are not a stat of their own (shown elsewhere, or not at all).
    const NOT_STATS = ["player", "life", "eliminated", "caught_cheating", "mulligan", "damage", "marker"];
    function backs(n) { const out = []; for (let i = 0; i < n; i++) out.push(card({ hidden: true })); return out; }

    function seatBox(seat) {
      let box = $("seat-" + seat);
      if (!box) {
        box = el("div", { id: "seat-" + seat, class: "seat", "data-seat": seat, style: { borderLeftColor: seatColor(seat) } });
        const first = app.seats.length ? app.seats[0] : seat;
        // the first seat sits at the bottom, the others across the table, in seating order;
        // a classic table lays every seat out in seating order
        if (seat === first && $("seats-top").dataset.layout !== "classic") $("seats-bottom").append(box);
        else $("seats-top").append(box);
      }
      return box;
    }
    function stats(s) {
      const out = [];
      for (const [k, v] of Object.entries(s)) {
        if (NOT_STATS.includes(k) || k.endsWith("_count") || typeof v !== "number") continue;
        out.push([k, words(k) + " " + v]);
      }
      const order = ["level", "gold"];
      out.sort((a, b) => (order.indexOf(a[0]) + 1 || 99) - (order.indexOf(b[0]) + 1 || 99) || a[0].localeCompare(b[0]));
      if (s.damage != null) out.splice(Math.min(1, out.length), 0, ["damage", "damage " + s.damage + (s.life != null ? "/" + s.life : "")]);
      if (s.marker != null) out.push(["marker", s.marker === "limp_away" ? "Limp Away" : s.marker === "run_away" ? "Run Away" : words(s.marker)]);
      return out.map(([k, text]) => el("span", { class: "stat", "data-stat": k, text: text }));
    }
    function zones(seat, s) {
      const names = Object.keys(s).filter((k) => Array.isArray(s[k]) || (k === "hero" && s[k] && typeof s[k] === "object"));
      if (s.hand_count != null && !names.includes("hand")) names.push("hand");
      names.sort((a, b) => (ZONE_ORDER.indexOf(a) + 1 || 50) - (ZONE_ORDER.indexOf(b) + 1 || 50) || a.localeCompare(b));
      return names.map((name) => {
        if (name === "hand") {
          const hand = s.hand ? s.hand.map((c) => card(c, { inHand: true })) : backs(s.hand_count);
          return zone(seat, "hand", hand, " (" + (s.hand_count != null ? s.hand_count : hand.length) + ")");
        }
        const cards = [].concat(s[name]);
        if (name === "removed" && !cards.length) return null;
        return zone(seat, name, cards.map((c) => card(c)));
      }).filter(Boolean);
    }

    // ------------------------------------------------------------------ classic board
    // Classic Munchkin (docs/rules.md B): 3-6 seats in seating order, a grid on a wide screen and
    // a stack on a phone; the combat, the decks and discards between them and the timeline.
    // Everything shown is what the API gave this viewer: another seat's hand is only its count.
    const TRAITS = ["race", "class", "army"];
    function plainValue(v) {
      if (v === null || v === undefined) return "";
      if (Array.isArray(v)) return v.map(plainValue).join(", ");
      if (typeof v === "object") return v.name ? v.name : Object.entries(v).map(([k, x]) => words(k) + " " + plainValue(x)).join(", ");
      return human(v);
    }
    function classicSeat(seat, s, st) {
      const box = seatBox(seat);
      const active = st.active_seat === seat;
      const won = (st.winners || []).includes(seat);
      box.classList.toggle("active", active);
      box.classList.toggle("dead", !!s.dead);
      box.dataset.active = active ? "true" : "false";
      const traitCards = [];
      const traitKinds = [];
      for (const t of TRAITS) {
        const cards = (s.traits && s.traits[t]) || [];
        if (cards.length) traitKinds.push(t);
        for (const c of cards) traitCards.push(card(c));
      }
      // a hand is face down by nature: its cards are shown plain to whoever may see them
      const hand = s.hand ? s.hand.map((c) => card(c, { inHand: true })) : backs(s.hand_count || 0);
      const handCount = s.hand_count != null ? s.hand_count : hand.length;
      box.replaceChildren(...[
        el("div", { class: "seat-head" }, [
          el("b", { text: seat + " · " + s.player }),
          el("span", { class: "stat", "data-stat": "level", text: "level " + s.level }),
          active ? el("span", { class: "turn-mark", "data-active-mark": "", text: "\u25B6 to play" }) : null,
          s.dead ? el("b", { class: "dead-mark", "data-dead": "", text: "dead" }) : null,
          won ? el("b", { class: "won-mark", "data-winner": "", text: "winner" }) : null,
        ]),
        zone(seat, "traits", traitCards, traitKinds.length ? " (" + traitKinds.join(", ") + ")" : " (none)"),
        zone(seat, "equipped", (s.equipped || []).map((c) => card(c))),
        zone(seat, "carried", (s.carried || []).map((c) => card(c))),
        zone(seat, "hand", hand, " (" + handCount + ")"),
        (s.curses || []).length ? zone(seat, "curses", s.curses.map((c) => card(c))) : null,
        (s.helpers || []).length ? zone(seat, "helpers", s.helpers.map((c) => card(c))) : null,
      ].filter(Boolean));
    }
    function classicWhere(st) {
      const seatName = (x) => x + (st.seats && st.seats[x] ? " (" + st.seats[x].player + ")" : "");
      return [
        "turn " + st.turn, words(st.phase), st.active_seat ? seatName(st.active_seat) + " to play" : null, words(st.status),
        (st.winners || []).length ? "winners " + st.winners.join(", ") : null,
      ].filter(Boolean).join(" · ");
    }
    function classicCombat(c) {
      const box = el("div", { class: "combat", "data-combat": "" });
      const side = [el("b", { text: c.player }), " fights · strength ",
        el("span", { class: "strength", "data-strength": "player", text: String(c.player_strength) })];
      if (c.helper) side.push(" · helped by ", el("b", { "data-helper": c.helper, text: c.helper }));
      if (c.asked) side.push(" · asks " + c.asked + " to help");
      if (c.bribe) side.push(el("span", { "data-bribe": "", text: " · bribe: " + plainValue(c.bribe) }));
      const monsters = (c.monsters || []).map((m) => el("div", { class: "monster", "data-monster": m.card && m.card.id ? m.card.id : "" }, [
        el("div", { class: "cards" }, [card(m.card), ...(m.enhancers || []).map((x) => card(x))]),
        el("div", { class: "count", text: "level " + m.level + " · strength " + m.strength + ((m.enhancers || []).length ? " · " + m.enhancers.length + " enhancer(s)" : "") }),
      ]));
      const shots = (c.one_shots || []).map((x) => card(x.card));
      box.append(...[
        el("div", { class: "combat-head" }, [el("b", { text: "Combat" }), " · " + words(c.stage)]),
        el("div", { class: "combat-sides" }, [
          el("div", { class: "side-player" }, side),
          el("div", { class: "vs", text: "vs" }),
          el("div", { class: "side-monsters" }, ["monsters strength ",
            el("span", { class: "strength", "data-strength": "monsters", text: String(c.monster_strength) })]),
        ]),
        el("div", { class: "monsters" }, monsters),
        shots.length ? zone("combat", "one-shots", shots) : null,
        (c.passed || []).length ? el("div", { class: "count", text: "passed: " + c.passed.join(", ") }) : null,
      ].filter(Boolean));
      return box;
    }
    const PILE_SHOWN = 6;
    function pile(name, cards) {
      const all = cards || [];
      const top = all.slice(-PILE_SHOWN).reverse(); // the top of a discard pile first
      return zone("decks", name, top.map((c) => card(c)), " (" + all.length + (all.length > top.length ? ", top " + top.length : "") + ")");
    }
    function drawClassic(st) {
      const seats = Object.keys(st.seats || {}).sort();
      if (seats.join() !== app.seats.join() || $("seats-top").dataset.layout !== "classic") {
        app.seats = seats;
        $("seats-top").replaceChildren();
        $("seats-bottom").replaceChildren();
      }
      $("seats-top").dataset.layout = "classic";
      $("board").dataset.layout = "classic";
      $("seats-top").dataset.count = String(seats.length);
      for (const seat of seats) classicSeat(seat, st.seats[seat], st);
      const fb = $("fight");
      fb.classList.toggle("empty", !st.combat);
      const d = st.decks || {};
      const extra = [];
      if (st.body) {
        extra.push(zone("decks", "body of " + st.body.dead, (st.body.cards || []).map((c) => card(c)),
          st.body.order && st.body.order.length ? " (looting order " + st.body.order.join(", ") + ")" : ""));
      }
      if (st.trade) {
        extra.push(el("div", { class: "count", "data-trade": "" , text: st.trade.player + " offers " + st.trade.with + " a trade: " +
          plainValue(st.trade.give) + " for " + plainValue(st.trade.get) }));
      }
      // the combat first (above the seats: in sight on a laptop even at six seats), the decks after
      fb.replaceChildren(...[
        el("div", { class: "where", "data-where": "", text: classicWhere(st) }),
        st.combat ? classicCombat(st.combat) : null,
        ...extra,
      ].filter(Boolean));
      const db = $("decks-box");
      db.hidden = false;
      db.replaceChildren(el("div", { class: "decks fight", "data-decks": "" }, [
        el("div", { class: "count", text: "door deck " + d.door + " · treasure deck " + d.treasure }),
        el("div", { class: "piles" }, [pile("door_discard", d.door_discard), pile("treasure_discard", d.treasure_discard)]),
      ]));
    }

    function drawBoard(st) {
      if (st.decks && "combat" in st) return drawClassic(st);
      delete $("board").dataset.layout;
      $("decks-box").hidden = true;
      const seats = Object.keys(st.seats || {}).sort();
      if (seats.join() !== app.seats.join() || $("seats-top").dataset.layout) {
        delete $("seats-top").dataset.layout; app.seats = seats; $("seats-top").replaceChildren(); $("seats-bottom").replaceChildren(); }
      $("seats-top").dataset.count = String(Math.max(0, seats.length - 1));
      for (const seat of seats) {
        const s = st.seats[seat];
        const box = seatBox(seat);
        box.classList.toggle("active", st.active_seat === seat);
        box.replaceChildren(...[
          el("div", { class: "seat-head" }, [
            el("b", { text: seat + " · " + s.player }),
            ...stats(s),
            s.deck_count != null ? el("span", { class: "count", text: "deck " + s.deck_count }) : null,
            s.eliminated ? el("b", { text: "eliminated (" + words(s.eliminated) + ")" }) : null,
          ]),
          ...zones(seat, s),
        ]);
      }
      const f = st.fight;
      const fb = $("fight");
      fb.classList.toggle("empty", !f);
      if (!f) {
        const where = [("fight" in st ? "no fight · " : "") + "turn " + st.turn, st.phase ? words(st.phase) + (st.step ? " / " + words(st.step) : "") : null,
          st.active_seat ? st.active_seat + " to play" : null, words(st.status), st.winner ? "winner " + st.winner : null];
        fb.replaceChildren(el("span", { text: where.filter(Boolean).join(" · ") }));
        return;
      }
      fb.replaceChildren(
        el("div", { text: "Fight: " + f.attacker + " attacks " + f.defender + " · " + words(f.stage) + " · " + f.gold + " gold committed" + (f.monster ? " · monster " + (f.monster.power != null ? "power " + f.monster.power : "") + (f.monster.life != null ? " life " + f.monster.life : "") : "") }),
        zone("fight", "attack", f.attack_card ? [card(f.attack_card)] : []),
        zone("fight", "defender", (f.defender_cards || []).map((c) => card(c))),
      );
    }
    return { drawBoard: drawBoard };
  }

  // ================================================================== the table page's board
  // ctx: app (the page's state: the table, /legal's answer, the seat acting), phrase(value) (a
  // value of the table as a short phrase, cards and seats by name) and seatName(seat).
  function tableBoard(ctx) {
    const app = ctx.app;
    const phrase = ctx.phrase;
    const seatName = ctx.seatName;
    function chip(c, inHand) {
      if (!c || c.hidden || typeof c.name !== "string") return el("span", { class: "c back", "data-hidden": "true", text: "?" });
      const bits = [c.power != null ? "power " + c.power : null, c.life != null ? "life " + c.life : null,
        c.kind === "monster" && c.level != null ? "level " + c.level : null, c.bonus ? (c.bonus > 0 ? "+" : "") + c.bonus : null,
        c.damage ? "damage " + c.damage : null, c.zapped ? "zapped" : null, c.face === "down" && inHand !== true ? "face down" : null].filter(Boolean);
      return el("span", { class: "c" + (c.zapped ? " zapped" : "") + (c.kind ? " k-" + c.kind : ""), "data-card-id": c.id || "", "data-name": c.name, title: cardTitle(c) },
        [el("span", { class: "n", text: c.name }), bits.length ? el("span", { class: "t", text: bits.join(" · ") }) : null]);
    }
    // a zone in a line: its name, then its cards as chips ("none" when it has none)
    function zone(name, cards, extra) {
      return zoneBox(name, words(name) + (extra || ""), cards.length ? cards.map(chip) : [el("span", { class: "none", text: "none" })], true);
    }
    const STAT_KEYS = ["level", "life", "damage", "gold", "deck_count", "hand_count"];
    function seatStats(s) {
      const out = [];
      if (s.level != null) out.push("level " + s.level);
      if (s.life != null) out.push("damage " + (s.damage || 0) + "/" + s.life);
      if (s.gold != null) out.push("gold " + s.gold);
      if (s.deck_count != null) out.push("deck " + s.deck_count);
      if (s.marker) out.push(words(s.marker));
      return out;
    }
    function seatZones(s, seat) {
      const out = [];
      if (s.hero) out.push(zone("hero", [s.hero]));
      if (s.traits) {
        const t = [].concat(...Object.values(s.traits).map((x) => x || []));
        if (t.length) out.push(zone("traits", t));
      }
      for (const [k, v] of Object.entries(s)) {
        if (!Array.isArray(v) || k === "hand") continue;
        if (!v.length && (app.state.status === "finished" || !["hoard", "equipped"].includes(k))) continue;
        out.push(zone(k, v));
      }
      if (seat !== app.acting || !s.hand) {
        const n = s.hand_count != null ? s.hand_count : (s.hand || []).length;
        out.push(el("div", { class: "zone", "data-zone": "hand" }, [el("span", { class: "zone-name", text: "hand" }), el("span", { class: "count", text: n + (n === 1 ? " card" : " cards") })]));
      }
      return out;
    }
    function drawSeats() {
      const st = app.state;
      const box = $("seats");
      const seats = Object.keys(st.seats || {}).sort();
      box.dataset.count = String(seats.length);
      const waiting = app.legal.waiting_for || [];
      box.replaceChildren(...seats.map((seat) => {
        const s = st.seats[seat];
        const marks = [];
        if (st.active_seat === seat && st.status !== "finished") marks.push(el("span", { class: "mark active", "data-active-mark": "", text: "\u25B6 turn" }));
        if (waiting.includes(seat)) marks.push(el("span", { class: "mark waiting", "data-waiting-mark": "", text: "waited on" }));
        if (s.dead) marks.push(el("span", { class: "mark dead", text: "dead" }));
        if (s.eliminated) marks.push(el("span", { class: "mark dead", text: "eliminated" }));
        if ((st.winners || []).includes(seat) || st.winner === seat) marks.push(el("span", { class: "mark won", "data-winner": "", text: "winner" }));
        return el("article", { class: "seat" + (st.active_seat === seat ? " active" : "") + (waiting.includes(seat) ? " waiting" : ""), "data-seat": seat, "aria-label": "seat " + seatName(seat) }, [
          el("header", { class: "seat-head" }, [el("b", { text: seatName(seat) }), ...marks,
            el("span", { class: "stats" }, seatStats(s).map((t) => el("span", { class: "stat", text: t })))]),
          ...seatZones(s, seat),
        ]);
      }));
    }
    // On the shared tablet (the table's token) the hand of the seat it acts for, and the moves
    // that name its cards, stay hidden until that player taps "show my hand"; hidden again
    // when the tablet acts for another seat. A seat's own phone shows its hand always.
    function handHidden() { return app.role === "table" && !!app.acting && app.shown !== app.acting && app.state.status !== "finished"; }
    function drawHand() {
      const s = app.state.seats && app.state.seats[app.acting];
      const box = $("hand-box");
      if (app.shown && app.shown !== app.acting) app.shown = "";
      const hide = handHidden() && s && s.hand;
      $("controls").hidden = !!hide;
      if (!s || !s.hand) { box.hidden = true; return; }
      box.hidden = false;
      if (hide) {
        box.replaceChildren(el("h2", { text: "Hand of " + seatName(app.acting) + " (" + s.hand.length + ")" }),
          el("p", { class: "note", text: "Pass the tablet to " + seatName(app.acting) + ": the hand and the moves stay hidden until they tap the button." }),
          el("button", { type: "button", class: "act show-hand", id: "show-hand", "data-show-hand": app.acting, text: "Show my hand (" + seatName(app.acting) + ")",
            onclick: () => { app.shown = app.acting; drawHand(); } }));
        return;
      }
      box.replaceChildren(el("h2", { text: "Hand of " + seatName(app.acting) + " (" + s.hand.length + ")" }),
        el("div", { class: "cards", "data-hand": app.acting }, s.hand.length ? s.hand.map((c) => chip(c, true)) : [el("span", { class: "none", text: "empty" })]));
    }
    function drawWhere() {
      const st = app.state;
      $("version").dataset.version = String(st.version);
      const over = st.status === "finished";
      const bits = over ? ["turn " + (st.turn || 0), winnerWords(st, seatName)]
        : ["turn " + (st.turn || 0), st.phase ? words(st.phase) + (st.step ? " / " + words(st.step) : "") : null,
          st.active_seat ? seatName(st.active_seat) + "'s turn" : null, st.status !== st.phase && st.status !== "playing" ? words(st.status) : null];
      $("stands").textContent = bits.filter(Boolean).join(" · ");
      const w = app.legal.waiting_for || [];
      const d = app.legal.deadline;
      $("waiting").dataset.waiting = w.join(",");
      $("waiting").dataset.deadline = d ? d.at : "";
      if (st.status !== "finished" && d) { // a server deadline: whom, what, until when, then what
        $("waiting").replaceChildren("waiting for " + window.munchlogPages.awaitedWords(d, app.players), window.munchlogPages.until(d.at),
          ": then the game goes on without " + (d.seats.length > 1 ? "their seeds" : "it"));
        return;
      }
      $("waiting").textContent = st.status === "finished" ? "the game is over" : w.length ? "waiting for " + w.map(seatName).join(", ") : "";
    }
    // one item of the CCG's stack: "Sample Spilled Ale (mischief) by B (Bob)", its other fields after
    function stackItem(x) {
      if (!x || typeof x !== "object") return phrase(x);
      const rest = Object.assign({}, x);
      for (const k of ["card", "kind", "player", "seat", "ref", "canceled"]) delete rest[k];
      const who = x.player || x.seat;
      return [(x.card ? phrase(x.card) : "an effect") + (x.kind ? " (" + words(x.kind) + ")" : "") + (who ? " by " + seatName(who) : ""),
        x.canceled ? "canceled" : null, Object.keys(rest).length ? phrase(rest) : null].filter(Boolean).join(" · ");
    }
    function drawCenter() {
      const st = app.state;
      const kids = [];
      // a finished game: the seats and who won, nothing of the last fight or the decks (the
      // replay has them), so that it fits in two screens of a phone
      $("center").hidden = st.status === "finished";
      if (st.fight) {
        const f = st.fight;
        kids.push(el("div", { class: "fight", "data-fight": "" }, [
          el("b", { text: "Fight: " }), seatName(f.attacker) + " attacks " + seatName(f.defender) + " · " + words(f.stage) + (f.gold ? " · " + f.gold + " gold committed" : ""),
          el("div", { class: "cards" }, [f.attack_card ? chip(f.attack_card) : null, ...(f.defender_cards || []).map(chip), f.monster && f.monster.name ? chip(f.monster) : null]),
        ]));
      }
      if (st.window) {
        kids.push(el("div", { class: "window", "data-window": st.window.kind }, "Time to respond" +
          ((st.window.waiting_for || []).length ? " · waiting for " + st.window.waiting_for.map(seatName).join(", ") + " to pass" : "")));
      }
      if ((st.stack || []).length) {
        kids.push(el("div", { class: "stack", "data-stack": String(st.stack.length) }, [el("b", { text: "Stack (top first): " }),
          el("ol", {}, [...st.stack].reverse().map((x) => el("li", { text: stackItem(x) })))]));
      }
      if (st.combat) {
        const c = st.combat;
        const side = seatName(c.player) + (c.helper ? " helped by " + seatName(c.helper) : "") + " · strength " + c.player_strength;
        kids.push(el("div", { class: "combat", "data-combat": "" }, [
          el("div", {}, [el("b", { text: "Combat" }), " · " + words(c.stage) + " · " + side + " vs monsters " + c.monster_strength]),
          c.asked ? el("div", { text: seatName(c.player) + " asks " + seatName(c.asked) + " to help" + (c.bribe ? " (bribe: " + phrase(c.bribe) + ")" : "") }) : null,
          el("div", { class: "cards" }, [].concat(...(c.monsters || []).map((m) => [chip(m.card), ...(m.enhancers || []).map(chip)]))),
          (c.one_shots || []).length ? zone("one-shots", c.one_shots.map((x) => x.card)) : null,
        ]));
      }
      if (st.body) kids.push(zone("body of " + st.body.dead, st.body.cards || [], st.body.order && st.body.order.length ? " (looting order " + st.body.order.join(", ") + ")" : ""));
      if (st.trade) kids.push(el("div", { "data-trade": "", text: seatName(st.trade.player) + " offers " + seatName(st.trade.with) + " a trade: " + phrase(st.trade.give) + " for " + phrase(st.trade.get) }));
      if (st.decks) {
        const d = st.decks;
        const top = (pile) => (pile || []).slice(-3).reverse();
        kids.push(el("div", { class: "decks", "data-decks": "" }, [
          el("span", { class: "count", text: "door deck " + d.door + " · treasure deck " + d.treasure }),
          zone("door discard", top(d.door_discard), " (" + (d.door_discard || []).length + ")"),
          zone("treasure discard", top(d.treasure_discard), " (" + (d.treasure_discard || []).length + ")"),
        ]));
      }
      if (!kids.length) kids.push(el("p", { class: "note", text: st.status === "finished" ? "The game is over." : "Nothing in the middle of the table." }));
      $("center").replaceChildren(...kids);
    }
    return { drawSeats: drawSeats, drawHand: drawHand, drawWhere: drawWhere, drawCenter: drawCenter };
  }

  // Who won a finished game: "B (Bob) won", "A (Alice) and C (Carol) won", "nobody won"
  function winnerWords(st, seatName) {
    const w = st.winners && st.winners.length ? st.winners : st.winner ? [st.winner] : [];
    if (!w.length) return "nobody won";
    const names = w.map(seatName);
    return (names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0]) + " won";
  }
  window.munchlogBoards = { words: words, plain: plain, winnerWords: winnerWords, CARD_ID: CARD_ID, collectNames: collectNames, viewer: viewerBoard, table: tableBoard };
})();
