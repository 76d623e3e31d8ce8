/* munchlog fair dealing, scheme "munchlog-rand-v1", in the browser: a second, independent
 * implementation of domain/dealing.py (the scheme) and of domain/fair_check.py's `verify` (a game's
 * dealing re-derived from its records), on WebCrypto (crypto.subtle: SHA-256, HMAC-SHA256).
 * docs/dealing.md spells out every byte string; tests/e2e/test_dealing_js.py holds this file to
 * the known-answer vectors and to the Python code on random inputs.
 *
 * Everything here is asynchronous (WebCrypto is) and pure: bytes in, bytes out, nothing read
 * from the page or the server. Exposed as `MunchlogDealing` on the global object.
 */
"use strict";
(function (root) {
  const SCHEME = "munchlog-rand-v1";
  const SECRET_BYTES = 32;
  const MAX_COUNTER = (1n << 64n) - 1n;
  const MAX_EPOCH = 2 ** 32 - 1;
  const ASCII = new TextEncoder();

  // ------------------------------------------------------------------ WebCrypto
  function subtle() {
    const s = root.crypto && root.crypto.subtle;
    if (!s) throw new Error("this browser offers no Web Crypto here (the page must come over https or from localhost)");
    return s;
  }
  async function sha256(bytes) { return new Uint8Array(await subtle().digest("SHA-256", bytes)); }
  const KEYS = new Map(); // hex of a key -> its CryptoKey (a few per game: the keys are public once revealed)
  function hmacKey(key) {
    const h = hex(key);
    let k = KEYS.get(h);
    if (!k) {
      if (KEYS.size > 64) KEYS.clear();
      k = subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      KEYS.set(h, k);
    }
    return k;
  }
  async function hmac(key, message) { return new Uint8Array(await subtle().sign("HMAC", await hmacKey(key), message)); }

  // ------------------------------------------------------------------ encodings
  function hex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }
  const HEX32 = /^[0-9a-f]{64}$/;
  function isHex32(text) { return typeof text === "string" && HEX32.test(text); }
  function unhex(text) {
    if (typeof text !== "string" || text.length % 2 || !/^[0-9a-f]*$/.test(text)) throw new Error("expected lowercase hex");
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  function concat(parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  }
  // `text` as ASCII bytes; refused when empty, not ASCII or holding "|" (the labels' separator)
  function name(text, what) {
    if (typeof text !== "string" || !text || !/^[\x00-\x7f]*$/.test(text) || text.includes("|")) {
      throw new Error(what + " must be non-empty ASCII without '|'");
    }
    return ASCII.encode(text);
  }
  function bytes32(value, what) {
    if (!(value instanceof Uint8Array) || value.length !== SECRET_BYTES) throw new Error(what + " must be 32 bytes");
    return value;
  }
  // an unsigned big-endian integer of `width` bytes
  function u(value, width) {
    let v = BigInt(value);
    const out = new Uint8Array(width);
    for (let i = width - 1; i >= 0; i--) { out[i] = Number(v & 0xffn); v >>= 8n; }
    return out;
  }
  function prefixed(data) {
    if (data.length > 0xffff) throw new Error("a length-prefixed field is at most 65,535 bytes");
    return concat([u(data.length, 2), data]);
  }
  // A whole number as a BigInt (a JS integer or a BigInt), else null: no float, no boolean.
  function wholeOf(x) {
    if (typeof x === "bigint") return x;
    if (typeof x === "number" && Number.isInteger(x)) return BigInt(x);
    if (x && typeof x === "object" && typeof x.big === "bigint") return x.big; // a big JSON integer (chain.js)
    return null;
  }
  // Strings in code point order (Python's `sorted`): UTF-16 order differs only past U+FFFF.
  function byCodePoint(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a.codePointAt(i), y = b.codePointAt(i);
      if (x !== y) return x < y ? -1 : 1;
      if (x > 0xffff) i++;
    }
    return a.length - b.length;
  }

  // ------------------------------------------------------------------ commitments
  async function serverCommitment(gameId, secret) {
    const prefix = concat([ASCII.encode(SCHEME + "|server|"), name(gameId, "game id"), ASCII.encode("|")]);
    return hex(await sha256(concat([prefix, bytes32(secret, "the server secret")])));
  }
  async function seatCommitment(gameId, seat, seed) {
    const prefix = concat([ASCII.encode(SCHEME + "|seat|"), name(gameId, "game id"), ASCII.encode("|"), name(seat, "seat"), ASCII.encode("|")]);
    return hex(await sha256(concat([prefix, bytes32(seed, "a seat seed")])));
  }
  // whether `revealedHex` opens `commitment`; never throws for what clients send
  async function opens(commitment, revealedHex, commit) {
    if (!isHex32(commitment) || !isHex32(revealedHex)) return false;
    try { return (await commit(unhex(revealedHex))) === commitment; } catch (e) { return false; }
  }
  function seatSeedMatches(gameId, seat, seedHex, commitment) {
    return opens(commitment, seedHex, (seed) => seatCommitment(gameId, seat, seed));
  }
  function serverSecretMatches(gameId, secretHex, commitment) {
    return opens(commitment, secretHex, (secret) => serverCommitment(gameId, secret));
  }

  // ------------------------------------------------------------------ the game key
  // seeds: [[seat, Uint8Array | null], ...] in the game's seat order (null: withheld)
  function keyMessage(gameId, seeds, epoch, previous) {
    epoch = epoch === undefined ? 0 : epoch;
    previous = previous === undefined ? new Uint8Array(SECRET_BYTES) : previous;
    if (!Number.isInteger(epoch) || epoch < 0 || epoch > MAX_EPOCH) throw new Error("epoch out of range: " + epoch);
    const names = seeds.map((s) => s[0]);
    if (new Set(names).size !== names.length) throw new Error("a seat is listed twice");
    const out = [ASCII.encode(SCHEME + "|key|"), u(epoch, 4), bytes32(previous, "the previous key"),
      prefixed(name(gameId, "game id")), u(seeds.length, 2)];
    for (const [seat, seed] of seeds) {
      out.push(prefixed(name(seat, "seat")));
      out.push(seed === null ? new Uint8Array([0]) : concat([new Uint8Array([1]), bytes32(seed, "seat " + seat + "'s seed")]));
    }
    return concat(out);
  }
  function gameKey(secret, gameId, seeds, epoch, previous) {
    return hmac(bytes32(secret, "the server secret"), keyMessage(gameId, seeds, epoch, previous));
  }
  function rekey(previous, epoch, secret, gameId, seeds) {
    if (!(epoch >= 1)) throw new Error("re-keying starts at epoch 1 (epoch 0 is the game key)");
    return gameKey(secret, gameId, seeds, epoch, bytes32(previous, "the key"));
  }

  // ------------------------------------------------------------------ random streams
  function block(key, counter, index) {
    const c = wholeOf(counter);
    if (c === null || c < 0n || c > MAX_COUNTER) throw new Error("counter out of range: " + counter);
    return hmac(bytes32(key, "the key"), concat([ASCII.encode(SCHEME + "|draw|"), u(c, 8), u(index, 4)]));
  }
  // One operation's random stream, read front to back.
  class Stream {
    constructor(key, counter) { this.key = key; this.counter = counter; this.index = 0; this.buffer = new Uint8Array(0); }
    async take(n) {
      while (this.buffer.length < n) this.buffer = concat([this.buffer, await block(this.key, this.counter, this.index++)]);
      const out = this.buffer.slice(0, n);
      this.buffer = this.buffer.slice(n);
      return out;
    }
    // A uniform BigInt in [0, n) by rejection sampling: the low k bits (k: the bit length of
    // n - 1) of the next ceil(k / 8) bytes, big-endian, tried again until below n.
    async below(n) {
      n = wholeOf(n);
      if (n === null || n < 1n) throw new Error("nothing to draw below " + n);
      const bits = (n - 1n).toString(2).length - (n === 1n ? 1 : 0);
      if (bits === 0) return 0n;
      const width = Math.ceil(bits / 8), mask = (1n << BigInt(bits)) - 1n;
      for (;;) {
        let v = 0n;
        for (const b of await this.take(width)) v = (v << 8n) | BigInt(b);
        v &= mask;
        if (v < n) return v;
      }
    }
  }
  const small = (v) => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
  async function draw(key, counter, nbytes) { return new Stream(key, counter).take(nbytes); }
  async function randbelow(key, counter, n) { return small(await new Stream(key, counter).below(n)); }
  async function roll(key, counter, sides) { return small(1n + (await new Stream(key, counter).below(sides === undefined ? 6 : sides))); }
  // `items` (ids) sorted by code point, then Fisher-Yates (Durstenfeld) on one stream.
  async function shuffle(key, counter, items) {
    const pile = Array.from(items);
    if (!pile.every((x) => typeof x === "string")) throw new Error("a pile holds ids (strings)");
    pile.sort(byCodePoint);
    const stream = new Stream(key, counter);
    for (let i = pile.length - 1; i > 0; i--) {
      const j = Number(await stream.below(i + 1));
      [pile[i], pile[j]] = [pile[j], pile[i]];
    }
    return pile;
  }
  // The first `take` of `items` shuffled.
  async function deal(key, counter, items, take) {
    const pile = Array.from(items);
    if (!Number.isInteger(take) || take < 0 || take > pile.length) throw new Error("cannot take " + take + " of " + pile.length + " cards");
    return (await shuffle(key, counter, pile)).slice(0, take);
  }
  // `count` dice of `sides` faces from one stream.
  async function dice(key, counter, sides, count) {
    if (!Number.isInteger(sides) || !Number.isInteger(count) || sides < 1 || count < 1) throw new Error("cannot roll " + count + " dice of " + sides + " sides");
    const stream = new Stream(key, counter);
    const out = [];
    for (let i = 0; i < count; i++) out.push(1 + Number(await stream.below(sides)));
    return out;
  }

  // ------------------------------------------------------------------ verifying a game
  // A value as Python's repr would name it in a reason ("'A'", "None", "3").
  function repr(x) {
    if (x === null || x === undefined) return "None";
    if (typeof x === "string") return "'" + x + "'";
    if (typeof x === "boolean") return x ? "True" : "False";
    if (x && typeof x === "object" && typeof x.big === "bigint") return String(x.big);
    if (x && typeof x === "object" && typeof x.float === "number") return String(x.float);
    return typeof x === "object" ? JSON.stringify(x) : String(x);
  }
  function str(x) { return typeof x === "string" ? x : repr(x); }
  // Python's == for the JSON values an event holds (1 == 1.0; a big integer as a BigInt)
  function same(a, b) {
    const num = (x) => (typeof x === "number" ? x : x && typeof x === "object" && typeof x.float === "number" ? x.float : null);
    const wa = wholeOf(a), wb = wholeOf(b);
    if (wa !== null && wb !== null) return wa === wb;
    if (num(a) !== null || num(b) !== null) return num(a) !== null && num(b) !== null && num(a) === num(b);
    return a === b;
  }
  function isMapping(x) { return x !== null && typeof x === "object" && !Array.isArray(x) && !("big" in x) && !("float" in x); }
  function counterProblem(counter, expected) {
    const c = typeof counter === "boolean" ? null : wholeOf(counter);
    if (c === null || c < 0n) return "counter " + repr(counter) + " is not a counter";
    if (c < expected) return "counter " + c + " repeats (expected " + expected + ")";
    if (c > expected) return "counter " + c + " skips " + (c === expected + 1n ? String(expected) : expected + " to " + (c - 1n));
    return null;
  }

  class Epoch {
    constructor(number, commitment) {
      Object.assign(this, { number: number, commitment: commitment, commitments: new Map(), revealed: new Map(), withheld: [], operations: 0, secret: null });
    }
    seeds(contributors) {
      return contributors.filter((c) => this.revealed.has(c) || this.withheld.includes(c))
        .map((c) => [c, this.revealed.has(c) ? unhex(this.revealed.get(c)) : null]);
    }
  }

  // One pass over a game's records, in order (domain/fair_check.py _Verifier, handler for handler).
  class Verifier {
    constructor(gameId, opened, created) {
      this.gameId = gameId;
      this.piles = new Piles(created || {}); // the piles as the log holds them (domain.fold in Python)
      this.beforeDraw = null; // the piles before the draw being read (its Dealt events, its reshuffles)
      this.drawn = []; // the Dealt events the event being read takes its cards and dice from
      this.contributors = (Array.isArray(opened.contributors) ? opened.contributors : []).map(str);
      this.epochs = [new Epoch(0, str(opened.server_commitment))];
      this.used = new Set();
      this.counter = 0n;
      this.operations = [];
      this.hidden = 0;
      this.awaiting = []; // the operations whose results the next event of the game must use
    }
    get epoch() { return this.epochs[this.epochs.length - 1]; }
    contributor(data) { return typeof data.contributor === "string" && this.contributors.includes(data.contributor) ? data.contributor : null; }
    // The problem with the event `data` at `version` ([version, reason]: an earlier Dealt it
    // shows wrong is named at its own version), if any; then the event folded into the piles.
    async check(version, data) {
      const drawing = data.type === "Dealt" || (this.piles.bookkeeping(data.type) && data.seat === "rules"); // a draw's own: the rules' reshuffle, not a judge's
      if (drawing && this.beforeDraw === null) this.beforeDraw = this.piles.snapshot();
      const name = "on" + data.type;
      let problem;
      if (!Object.prototype.hasOwnProperty.call(Verifier.prototype, name) || typeof this[name] !== "function") {
        problem = this.uses(version, data);
        if (!drawing) problem = first(problem, this.pileProblem(version, data));
      } else {
        const found = await this[name](version, data);
        problem = found === null ? null : [version, found];
        if (found === null && data.type === "Dealt") this.awaiting.push([version, data]);
      }
      if (!drawing) { this.beforeDraw = null; this.drawn = []; }
      this.piles.fold(data);
      return problem;
    }
    // Whether the Dealt events right before `data` are the ones it takes by chance (the piles
    // before the draw): one for each pile it draws from by chance, from the cards the log
    // holds there in no known order, and one for each roll (domain/fair_check.py _piles).
    pileProblem(version, data) {
      const piles = this.beforeDraw !== null ? this.beforeDraw : this.piles;
      if (piles.blind) return null;
      const deals = this.drawn.filter(([, op]) => op.op === "deal");
      const rolls = this.drawn.filter(([, op]) => op.op === "dice");
      const uses = piles.uses(data);
      for (const use of uses) {
        if (use.op === "dice") {
          if (!rolls.length) return [version, "holds a roll without a Dealt of its dice right before it"];
          rolls.shift();
          continue;
        }
        if (use.take <= 0) continue; // drawn without chance (D.20's known top card, a deck that ran out)
        const at = deals.findIndex(([, op]) => op.pile === use.pile);
        if (at < 0) {
          if (deals.length) return [version, "draws from " + use.pile + ", but the Dealt at version " + deals[0][0] + " deals from " + str(deals[0][1].pile)];
          return [version, "draws from " + use.pile + " by chance without a Dealt right before it"];
        }
        const [match] = deals.splice(at, 1);
        const problem = pileMismatch(use, match[1]);
        if (problem !== null) return [match[0], problem];
      }
      if (deals.length && uses.some((use) => use.op === "deal")) { // a Dealt the draw has no use for
        return [deals[0][0], "deals from " + str(deals[0][1].pile) + ", but the draw at version " + version + " takes nothing there by chance"];
      }
      return null;
    }
    // Whether `data`, the first event after random operations that is not one, uses their
    // results: names every card dealt, holds the dice in their order. The cards it names are
    // read from every field as an event's card fields are (a string, the strings of a list, the
    // keys of an object but "hero"): Python reads only the fields its event class declares.
    uses(version, data) {
      const awaiting = this.awaiting;
      if (!awaiting.length) return null;
      const named = new Set(), numbers = [], fields = [];
      for (const [k, v] of Object.entries(data)) {
        if (NOT_RESULTS.includes(k)) continue;
        let ids = [];
        if (typeof v === "string") ids = [v];
        else if (Array.isArray(v)) ids = v.filter((x) => typeof x === "string");
        else if (isMapping(v)) ids = Object.keys(v).filter((x) => x !== "hero");
        ids.forEach((x) => named.add(x));
        fields.push(new Set(ids));
        wholeNumbers(v, numbers);
      }
      const list = (x) => (Array.isArray(x) ? x : x ? [x] : []);
      const dealtCards = awaiting.flatMap(([, op]) => list(op.cards).filter((c) => typeof c === "string"));
      const onlyDeals = awaiting.every(([, op]) => op.op === "deal");
      if (data.seat === "rules" && onlyDeals && !dealtCards.some((c) => named.has(c))) return null; // the rules' bookkeeping between a draw and the next (a reshuffle)
      this.awaiting = [];
      this.drawn = awaiting;
      for (const [at, dealt] of awaiting) {
        const cards = list(dealt.cards).filter((c) => typeof c === "string");
        // all in one field (a mulligan's new hand, not spread over it and the old one)
        if (cards.length && !fields.some((ids) => cards.every((c) => ids.has(c)))) return [version, "does not draw the cards the server dealt at version " + at];
        if (dealt.op === "dice" && !inOrder(list(dealt.values), numbers)) return [version, "does not use the dice the server rolled at version " + at];
      }
      return null;
    }
    onSeedCommitted(version, data) {
      const seat = this.contributor(data), ep = this.epoch;
      if (seat === null) return repr(data.contributor) + " is not a contributor";
      if (!same(data.epoch, ep.number)) return "a commitment for epoch " + str(data.epoch) + " in epoch " + ep.number;
      if (ep.commitments.has(seat)) return "seat " + seat + " commits twice";
      if (ep.revealed.size || ep.withheld.length || ep.operations) return "a commitment after a reveal or a random operation";
      const commitment = str(data.commitment);
      if (this.used.has(commitment)) return "a commitment used before in this game";
      this.used.add(commitment);
      ep.commitments.set(seat, commitment);
      return null;
    }
    async onSeedRevealed(version, data) {
      const seat = this.contributor(data), ep = this.epoch;
      if (seat === null) return repr(data.contributor) + " is not a contributor";
      if (this.contributors.some((c) => !ep.commitments.has(c) && !ep.withheld.includes(c))) return "a seed revealed before every contributor committed (or was withheld)";
      if (ep.revealed.has(seat) || ep.withheld.includes(seat) || ep.operations) return "seat " + seat + "'s seed revealed twice, after withholding or after an operation";
      const seed = str(data.seed);
      if (!(await seatSeedMatches(this.gameId, seat, seed, ep.commitments.get(seat)))) return "seat " + seat + "'s seed does not open its commitment";
      ep.revealed.set(seat, seed);
      return null;
    }
    onSeedWithheld(version, data) {
      const seat = this.contributor(data), ep = this.epoch;
      if (seat === null || ep.revealed.has(seat) || ep.withheld.includes(seat) || ep.operations) return repr(data.contributor) + " cannot withhold here";
      if (!ep.commitments.has(seat) && ep.revealed.size) return "seat " + seat + " withheld its commitment after the reveals began";
      ep.withheld.push(seat);
      return null;
    }
    onDealt(version, data) {
      const ep = this.epoch;
      const problem = counterProblem(data.counter, this.counter);
      if (problem !== null) return problem;
      if (!same(data.epoch, ep.number)) return "an operation of epoch " + str(data.epoch) + " in epoch " + ep.number;
      const waiting = this.contributors.filter((c) => !ep.revealed.has(c) && !ep.withheld.includes(c));
      if (waiting.length) return "a random operation before " + waiting.join(", ") + " revealed or withheld";
      if (data.scheme !== SCHEME) return "unknown scheme " + repr(data.scheme);
      const counter = wholeOf(data.counter);
      this.counter = counter + 1n;
      ep.operations += 1;
      const list = (x) => (Array.isArray(x) ? x : x ? [x] : []);
      let draw;
      if (data.op === "deal") {
        const among = list(data.among), cards = list(data.cards);
        if (!among.concat(cards).every((c) => typeof c === "string")) { this.hidden += 1; return null; } // a viewer's export
        draw = { counter: counter, operation: "deal", args: [among, data.take], result: cards };
      } else if (data.op === "dice") {
        const values = list(data.values);
        draw = { counter: counter, operation: "dice", args: [data.sides, values.length], result: values };
      } else {
        return "unknown operation " + repr(data.op);
      }
      this.operations.push({ version: version, epoch: ep.number, draw: draw });
      return null;
    }
    onDealingRekeyed(version, data) {
      if (!same(data.epoch, this.epoch.number + 1)) return "epoch " + str(data.epoch) + " does not follow " + this.epoch.number;
      if (this.epochs.some((ep) => ep.commitment === data.server_commitment)) return "a server commitment used before in this game";
      this.epochs.push(new Epoch(this.epoch.number + 1, str(data.server_commitment)));
      return null;
    }
    async onServerSecretRevealed(version, data) {
      const number = data.epoch;
      const ep = this.epochs.find((e) => same(e.number, number));
      if (!ep || ep.secret !== null) return "a secret for epoch " + repr(number) + ", unknown or revealed already";
      const secret = str(data.secret);
      if (!(await serverSecretMatches(this.gameId, secret, ep.commitment))) return "the secret does not open epoch " + str(number) + "'s server commitment";
      ep.secret = secret;
      return null;
    }
    // How many operations were re-derived, and the first that does not match ([version, reason]).
    async results() {
      const keys = new Map();
      let previous = null;
      for (const ep of this.epochs) {
        if (ep.secret === null) break;
        const seeds = ep.seeds(this.contributors), secret = unhex(ep.secret);
        previous = ep.number === 0 ? await gameKey(secret, this.gameId, seeds) : await rekey(previous, ep.number, secret, this.gameId, seeds);
        keys.set(ep.number, previous);
      }
      let checked = 0;
      for (const { version, epoch, draw } of this.operations) {
        const key = keys.get(epoch);
        if (!key) continue;
        if (await resultProblem(key, draw)) {
          return [checked, [version, draw.operation + " at counter " + draw.counter + ": the recorded result is not the one the key gives"]];
        }
        checked += 1;
      }
      return [checked, null];
    }
  }
  // ------------------------------------------------------------------ the piles
  // The cards of each pile as the log holds them, replayed from the records (what Python reads
  // from domain.fold's state; docs/dealing.md "What verify checks"). The CCG: each seat's deck
  // in order with its known top and bottom counts (D.20) and its hand (a mulligan shuffles it
  // back); classic: the door and treasure decks and their discard piles (a draw from a deck
  // holding fewer reshuffles the discards the log holds: domain.classic.combat.deck_draw).
  // A card leaves a pile when an event names it (as `uses` reads an event's cards) but for the
  // events below, which move cards into a deck or name cards without moving them.
  const CCG_DRAWS = { OpeningHandDrawn: "cards", CardDrawn: "card", CardsSpilled: "cards" };
  const CLASSIC_DRAWS = {
    CardsDealt: [["door", "doors"], ["treasure", "treasures"]], DoorKicked: [["door", "card"]],
    ListenedAtDoor: [["door", "card"]], RoomLooted: [[null, "card"]], TreasuresDrawn: [["treasure", "cards"]],
  };
  const CLASSIC_PILES = { door: "doors", treasure: "treasures" };
  // Classic's events that put cards on their decks' discard piles (domain.classic.state's
  // _discard): the fields naming them; "card?": only when the event's `stays` is not true (a
  // Curse that stays on its victim); "removed?": only an enhancer (a monster taken out stays in
  // the combat until its end). A judge's move or a restoration names the pile it puts a card in.
  const CLASSIC_DISCARDS = {
    ClassicCardDiscarded: ["card"], ItemsSold: ["cards"], GoUpALevelPlayed: ["card"],
    CurseApplied: ["card?", "lost", "hand"], BadStuffApplied: ["lost", "hand"], HurtOnEscape: ["lost", "hand"],
    CharityResolved: ["discarded"], CombatEnded: ["discarded"], ClassicJudgeCombatEnded: ["discarded"],
    BodyDiscarded: ["cards"], MonsterJoined: ["card"], OneShotPlayed: ["removed?"], SidekickSacrificed: ["card"],
    CurseExpired: ["card"], CurseRemoved: ["card", "remover"], HelpForced: ["card"], Backstabbed: ["card"],
    CheatDiscarded: ["card"], TheftAttempted: ["card"],
  };
  const ROLLS = { ccg: ["FirstPlayerRolled"], classic: ["FirstPlayerDetermined", "RunAwayRolled", "TheftAttempted"] };
  const KERNEL = ["SeedCommitted", "SeedRevealed", "SeedWithheld", "Dealt", "ServerSecretRevealed", "DealingRekeyed"];
  const NOT_MOVES = ["CardRevealed", "JudgeCardRevealed", "CardZapped", "CardUnzapped", "JudgeCardZapped", "JudgeCardUnzapped", "CardsUnzapped", "AttackCardRevealed"];
  function dealUse(pile, among, wanted) {
    const sorted = Array.from(among).sort(byCodePoint);
    return { op: "deal", pile: pile, among: sorted, take: Math.max(0, Math.min(wanted, sorted.length)) };
  }
  const drawnCount = (x) => (typeof x === "string" ? 1 : Array.isArray(x) ? x.length : 0);
  const ids = (list) => (Array.isArray(list) ? list.map((c) => (c !== null && typeof c === "object" ? c.id : undefined)) : []);
  class Piles {
    constructor(created) {
      this.decks = new Map(); // CCG: seat -> {cards, top, bottom}; classic: "door"/"treasure" -> {cards}
      this.hands = new Map();
      this.owner = new Map();
      this.deckOf = new Map(); // classic: card -> "door" or "treasure"
      this.enhancers = new Set(); // classic: the cards played as enhancers (OneShotPlayed's `removed`)
      this.classic = Array.isArray(created.doors);
      if (this.classic) {
        for (const deck of Object.keys(CLASSIC_PILES)) {
          const cards = ids(created[CLASSIC_PILES[deck]]);
          cards.forEach((c) => this.deckOf.set(c, deck));
          this.decks.set(deck, { cards: cards });
          this.decks.set(deck + "_discard", { cards: [] });
        }
      } else {
        for (const seat of Array.isArray(created.seats) ? created.seats : []) {
          if (!isMapping(seat) || typeof seat.seat !== "string") continue;
          const deck = ids(seat.deck);
          deck.forEach((c) => this.owner.set(c, seat.seat));
          this.decks.set(seat.seat, { cards: deck, top: 0, bottom: 0 });
          this.hands.set(seat.seat, []);
        }
      }
      // a viewer's export (or none at all): the piles are not all shown, nothing is held to them
      this.blind = !!created.blind || !Array.from(this.decks.values()).every((d) => d.cards.every((c) => typeof c === "string"));
    }
    bookkeeping(type) { return this.classic && type === "DiscardReshuffled"; }
    snapshot() {
      const copy = Object.create(Piles.prototype);
      Object.assign(copy, this, {
        decks: new Map(Array.from(this.decks, ([k, d]) => [k, Object.assign({}, d, { cards: d.cards.slice() })])),
        hands: new Map(Array.from(this.hands, ([k, h]) => [k, h.slice()])),
      });
      return copy;
    }
    // What `data` takes by chance (domain.fair.RandomUse; the family's random_uses).
    uses(data) {
      const type = data.type;
      if ((this.classic ? ROLLS.classic : ROLLS.ccg).includes(type)) return [{ op: "dice" }];
      const out = [];
      if (this.classic) {
        for (const [fixed, field] of Object.prototype.hasOwnProperty.call(CLASSIC_DRAWS, type) ? CLASSIC_DRAWS[type] : []) {
          const deck = fixed || data.deck;
          if (typeof deck !== "string" || !Object.prototype.hasOwnProperty.call(CLASSIC_PILES, deck)) continue;
          const n = drawnCount(data[field]), held = this.decks.get(deck).cards;
          out.push(held.length >= n ? dealUse(CLASSIC_PILES[deck], held, n)
            : dealUse(CLASSIC_PILES[deck], this.decks.get(deck + "_discard").cards, n - held.length));
        }
        return out;
      }
      const mulligan = type === "MulliganTaken";
      if (!(mulligan || Object.prototype.hasOwnProperty.call(CCG_DRAWS, type)) || typeof data.player !== "string" || !this.decks.has(data.player)) return out;
      const d = this.decks.get(data.player), pile = data.player + ":deck";
      let n = drawnCount(data[mulligan ? "cards" : CCG_DRAWS[type]]);
      if (mulligan) return [dealUse(pile, d.cards.concat(this.hands.get(data.player)), n)];
      n = Math.min(n, d.cards.length);
      const knownTop = Math.min(d.top, n), middle = d.cards.slice(d.top, d.cards.length - d.bottom);
      return [dealUse(pile, middle, Math.min(n - knownTop, middle.length))];
    }
    // -- the fold of the piles
    settle(d) { if (d.top + d.bottom >= d.cards.length) { d.top = d.cards.length; d.bottom = 0; } }
    leave(cid) { // a card out of whatever pile or hand holds it
      for (const d of this.decks.values()) {
        const i = d.cards.indexOf(cid);
        if (i < 0) continue;
        d.cards.splice(i, 1);
        if (!this.classic) {
          if (i < d.top) d.top -= 1;
          else if (i >= d.cards.length + 1 - d.bottom) d.bottom -= 1;
          this.settle(d);
        }
      }
      for (const [seat, hand] of this.hands) this.hands.set(seat, hand.filter((c) => c !== cid));
    }
    toDeck(cid, key, at) { // at: "top", "bottom" (counted, D.20), a position or null (a judge's restoration)
      this.leave(cid);
      const d = this.decks.get(key);
      if (!d) return;
      if (at === "top") { d.cards.unshift(cid); d.top += 1; this.settle(d); }
      else if (at === "bottom") { d.cards.push(cid); d.bottom += 1; this.settle(d); }
      else if (Number.isInteger(at)) d.cards.splice(at, 0, cid);
      else d.cards.push(cid);
    }
    named(data) {
      const out = [];
      for (const [k, v] of Object.entries(data)) {
        if (NOT_RESULTS.includes(k)) continue;
        if (typeof v === "string") out.push(v);
        else if (Array.isArray(v)) v.forEach((x) => { if (typeof x === "string") out.push(x); });
        else if (isMapping(v)) Object.keys(v).forEach((x) => { if (x !== "hero") out.push(x); });
      }
      return out;
    }
    fold(data) {
      if (this.blind || !isMapping(data)) return;
      const type = data.type, list = (x) => (Array.isArray(x) ? x.filter((c) => typeof c === "string") : []);
      if (KERNEL.includes(type) || NOT_MOVES.includes(type)) return;
      if (this.classic) {
        if (type === "DiscardReshuffled" && Object.prototype.hasOwnProperty.call(CLASSIC_PILES, data.deck)) {
          for (const c of list(data.cards)) this.toDeck(c, data.deck, null);
        } else if (type === "ClassicJudgeCardMoved" || type === "ClassicCardRestored") {
          const to = type === "ClassicJudgeCardMoved" ? data.to : data.zone;
          if (this.decks.has(to)) this.toDeck(data.card, to, type === "ClassicCardRestored" && Number.isInteger(data.position) ? data.position : null);
          else this.leave(data.card);
        } else {
          this.named(data).forEach((c) => this.leave(c));
          if (type === "EnhancerPlayed" && typeof data.card === "string") this.enhancers.add(data.card);
          const fields = Object.prototype.hasOwnProperty.call(CLASSIC_DISCARDS, type) ? CLASSIC_DISCARDS[type] : [];
          for (const f of fields) {
            const field = f.replace("?", "");
            if (f === "card?" && data.stays === true) continue;
            for (const c of typeof data[field] === "string" ? [data[field]] : list(data[field])) {
              if (f === "removed?" && !this.enhancers.has(c)) continue;
              if (this.deckOf.has(c)) this.toDeck(c, this.deckOf.get(c) + "_discard", null);
            }
          }
        }
        return;
      }
      const seat = data.player;
      if (type === "MulliganTaken" && this.decks.has(seat)) {
        for (const c of list(data.returned)) this.toDeck(c, this.owner.get(c), "bottom");
        for (const c of list(data.cards)) this.leave(c);
        const d = this.decks.get(seat);
        d.top = 0; d.bottom = 0; this.settle(d); // the hand shuffled into the deck (A.7)
        this.hands.set(seat, list(data.cards));
      } else if ((type === "CardMoved" || type === "JudgeCardMoved") && (data.to === "deck_top" || data.to === "deck_bottom")) {
        this.toDeck(data.card, this.owner.get(data.card), data.to === "deck_top" ? "top" : "bottom");
      } else if (type === "CardRestored" && data.zone === "deck") {
        this.toDeck(data.card, this.owner.get(data.card), Number.isInteger(data.position) ? data.position : null);
      } else if (type === "SeatRestored" && this.decks.has(seat)) {
        const d = this.decks.get(seat);
        if (Number.isInteger(data.deck_known_top)) d.top = data.deck_known_top;
        if (Number.isInteger(data.deck_known_bottom)) d.bottom = data.deck_known_bottom;
      } else {
        this.named(data).forEach((c) => this.leave(c));
        if ((type === "OpeningHandDrawn") && this.hands.has(seat)) this.hands.set(seat, list(data.cards));
        else if ((type === "CardDrawn" || type === "StashUnstashed") && this.hands.has(seat)) this.hands.get(seat).push(...(type === "CardDrawn" ? [data.card] : list(data.cards)));
      }
    }
  }
  // Why the Dealt `dealt` is not the draw `use` the log holds at its point (null: it is); in
  // counts, never a card (domain/fair_check.py _pile_problem, word for word).
  function pileMismatch(use, dealt) {
    const among = dealt.among;
    if (!Array.isArray(among) || !among.every((c) => typeof c === "string")) return null; // a viewer's export
    const sorted = among.slice().sort(byCodePoint);
    if (sorted.length !== use.among.length || sorted.some((c, i) => c !== use.among[i])) {
      return sorted.length !== use.among.length
        ? "deals from " + among.length + " cards of " + use.pile + ", not the " + use.among.length + " the log holds there in no known order"
        : "deals from cards of " + use.pile + " other than those the log holds there";
    }
    if (!same(typeof dealt.take === "boolean" ? Number(dealt.take) : dealt.take, use.take)) return "takes " + repr(dealt.take) + " cards where the draw takes " + use.take + " by chance";
    return null;
  }
  // The problem at the earliest version ([version, reason]) of two (null: none).
  function first(a, b) { return a === null ? b : b === null || a[0] <= b[0] ? a : b; }

  // Fields of a stored event that are never a random operation's result.
  const NOT_RESULTS = ["type", "v", "seat", "cause", "violation", "unchecked"];
  // Every whole number in a JSON value, in order (no boolean, no float), into `out`.
  function wholeNumbers(v, out) {
    if (typeof v === "boolean" || v === null || v === undefined) return out;
    if (wholeOf(v) !== null) out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => wholeNumbers(x, out));
    else if (isMapping(v)) Object.values(v).forEach((x) => wholeNumbers(x, out));
    return out;
  }
  // Whether `values` appear in `numbers` in their order (not necessarily side by side).
  function inOrder(values, numbers) {
    let at = 0;
    return values.every((v) => {
      while (at < numbers.length) if (same(numbers[at++], v)) return true;
      return false;
    });
  }
  // Why a recorded operation is not what the key gives (null: it is).
  async function resultProblem(key, draw) {
    let derived;
    try {
      derived = draw.operation === "deal" ? await deal(key, draw.counter, ...draw.args) : await dice(key, draw.counter, ...draw.args);
    } catch (e) {
      return draw.operation + " cannot run: " + e.message;
    }
    const result = draw.result;
    if (result.length !== derived.length || !result.every((x, i) => same(x, derived[i]))) return draw.operation + " gave another result";
    return null;
  }

  /* Re-derive a game's dealing from its records ([{version, event}], in order), as
   * domain/fair_check.py `verify` does: every commitment against its reveal; every commitment before
   * every reveal and the first random operation; no counter skipped or repeated; the event
   * after an operation using its result; once the server's secrets are revealed, the key and
   * every operation; every Dealt held to the pile the log holds at that point and every draw
   * or roll by chance to a Dealt right before it (not for a viewer's export: `options.complete`
   * false). Names the earliest event that does not match: {mode, ok, scheme, operations,
   * checked, hidden, complete, first_mismatch: {version, type, reason} | null}. */
  async function verify(records, options) {
    const first = records.length ? records[0].event : {};
    const opened = first && first.dealing;
    if (!isMapping(opened)) return { mode: "table", ok: true, first_mismatch: null };
    const verifier = new Verifier(str(first.game_id), opened, options && options.complete === false ? { blind: true } : first);
    let earliest = null; // [version, reason]: the first event that does not match
    const note = (problem) => { if (problem !== null && (earliest === null || problem[0] < earliest[0])) earliest = problem; };
    for (const record of records.slice(1)) {
      note(await verifier.check(Number(wholeOf(record.version)), record.event)); // read on: a later secret may show an earlier operation wrong
    }
    const [checked, bad] = await verifier.results(); // the operations whose key is known
    note(bad);
    let mismatch = null;
    if (earliest !== null) {
      const found = records.find((r) => same(r.version, earliest[0]));
      mismatch = { version: earliest[0], type: found && found.event.type !== undefined ? found.event.type : null, reason: earliest[1] };
    }
    const revealed = verifier.epochs.every((ep) => ep.secret !== null);
    return {
      mode: "server", scheme: opened.scheme === undefined ? null : opened.scheme, ok: mismatch === null,
      operations: verifier.operations.length + verifier.hidden, checked: checked, hidden: verifier.hidden,
      complete: mismatch === null && revealed && verifier.hidden === 0, first_mismatch: mismatch,
    };
  }

  root.MunchlogDealing = Object.freeze({
    SCHEME, sha256, hmac, hex, unhex, isHex32, byCodePoint,
    serverCommitment, seatCommitment, seatSeedMatches, serverSecretMatches,
    keyMessage, gameKey, rekey, block, draw, randbelow, roll, shuffle, deal, dice, verify,
  });
})(typeof window !== "undefined" ? window : globalThis);
