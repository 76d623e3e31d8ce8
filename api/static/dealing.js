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
    constructor(gameId, opened) {
      this.gameId = gameId;
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
    async check(version, data) {
      const name = "on" + data.type;
      if (!Object.prototype.hasOwnProperty.call(Verifier.prototype, name) || typeof this[name] !== "function") return this.uses(data);
      const problem = await this[name](version, data);
      if (problem === null && data.type === "Dealt") this.awaiting.push([version, data]);
      return problem;
    }
    // Whether `data`, the first event after random operations that is not one, uses their
    // results: names every card dealt, holds the dice in their order. The cards it names are
    // read from every field as an event's card fields are (a string, the strings of a list, the
    // keys of an object but "hero"): Python reads only the fields its event class declares.
    uses(data) {
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
      for (const [version, dealt] of awaiting) {
        const cards = list(dealt.cards).filter((c) => typeof c === "string");
        // all in one field (a mulligan's new hand, not spread over it and the old one)
        if (cards.length && !fields.some((ids) => cards.every((c) => ids.has(c)))) return "does not draw the cards the server dealt at version " + version;
        if (dealt.op === "dice" && !inOrder(list(dealt.values), numbers)) return "does not use the dice the server rolled at version " + version;
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
   * every operation. Names the earliest event that does not match: {mode, ok, scheme, operations, checked, hidden, complete,
   * first_mismatch: {version, type, reason} | null}. */
  async function verify(records) {
    const first = records.length ? records[0].event : {};
    const opened = first && first.dealing;
    if (!isMapping(opened)) return { mode: "table", ok: true, first_mismatch: null };
    const verifier = new Verifier(str(first.game_id), opened);
    let mismatch = null;
    for (const record of records.slice(1)) {
      const data = record.event;
      const problem = await verifier.check(Number(wholeOf(record.version)), data);
      if (problem !== null && mismatch === null) { // read on: a later secret may show an earlier operation wrong
        mismatch = { version: record.version, type: data.type === undefined ? null : data.type, reason: problem };
      }
    }
    const [checked, bad] = await verifier.results(); // the operations whose key is known
    if (bad !== null && (mismatch === null || bad[0] < mismatch.version)) {
      const found = records.find((r) => same(r.version, bad[0]));
      mismatch = { version: bad[0], type: found ? found.event.type : null, reason: bad[1] };
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
