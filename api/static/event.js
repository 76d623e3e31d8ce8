/* munchlog event page: pairings, results, standings, players and links to every game. No
 * framework, no request outside this server.
 *
 * Sign-in as in the replay viewer: an event token (a player's, the judge's or the organizer's)
 * comes from the form or the URL fragment (#token=..., never sent to the server), is kept in
 * sessionStorage and is sent only as "Authorization: Bearer". Without one the page shows what a
 * spectator may see. Everything comes from the event's export without its games
 * (GET /api/events/<id>/export?games=false), which the API redacts per caller: a decklist only
 * to its player, the judges and the organizer. A player's own games link with its seat token,
 * fetched from GET /api/events/<id>/rounds/<n>/my-game; the judge's token is a judge of every
 * game, so its links carry it; every other link opens the game as a spectator. Penalties are
 * shown as the export lists them for this caller (none to a spectator).
 */
"use strict";
(function () {
  const { EVENT, API, KEY } = window.munchlogPages.eventIds();
  const $ = (id) => document.getElementById(id);
  const { el, status, capital, plural } = window.munchlogPages;
  const app = { token: null, data: null, seatTokens: {} };
  const CUT_NAMES = ["final", "semifinals", "quarterfinals"];

  function headers() { return app.token ? { Authorization: "Bearer " + app.token } : {}; }
  function read(path) { return window.munchlogPages.readJSON(API + path, headers()); }
  function pct(x) { return (100 * Number(x)).toFixed(1); }
  function seated(seats) { return Object.keys(seats).sort().map((s) => [s, seats[s]]); }

  // ------------------------------------------------------------------ sign in
  window.munchlogPages.onSignin(load);
  $("sign-out").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    load(null);
  });
  $("refresh").addEventListener("click", () => load(app.token));
  // The export links: a spectator's is a plain link; a token's export is fetched with its
  // Authorization header and saved from memory (the token never goes into a URL).
  for (const id of ["export-json", "export-text"]) {
    $(id).addEventListener("click", async (ev) => {
      if (!app.token) return;
      ev.preventDefault();
      try {
        const r = await fetch($(id).href, { headers: headers(), cache: "no-store" });
        if (!r.ok) throw new Error("the export failed: HTTP " + r.status);
        const named = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "");
        const url = URL.createObjectURL(await r.blob());
        const a = el("a", { href: url, download: named ? named[1] : "event-export", hidden: true });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60000);
      } catch (e) { status(e.message); }
    });
  }

  async function load(token, again) {
    status("loading…");
    try {
      const data = await window.munchlogPages.readJSON(API + "/export?format=json&games=false",
        token ? { Authorization: "Bearer " + token } : {});
      app.token = token;
      if (token) sessionStorage.setItem(KEY, token);
      app.data = data;
      app.seatTokens = {};
      if (data.viewer.role === "player") await fetchSeatTokens();
      render();
      status("");
      // a result can end the round's clock (`over`): read again with the rest
      if (!again) followEvent(await loadClock());
      else loadClock().catch(() => {});
    } catch (e) {
      if (token && e.status === 401) {
        sessionStorage.removeItem(KEY);
        $("signin").open = true;
        await load(null);
        status("That token is not valid for this event: showing what a spectator sees.");
        return;
      }
      status(e.message);
    }
  }

  // ------------------------------------------------------------------ the clock, live
  // The round's clock (GET /api/events/<id>'s `clock`, counted down by api/static/clock.js) and
  // the event's stream (GET /api/events/<id>/stream, api/static/live.js): a clock change shows
  // at once; anything else (pairings, results, …) reloads the page's data, once per burst.
  const clock = window.munchlogClock.mount($("clock"));
  const CLOCK_TYPES = window.munchlogClock.TYPES;
  async function loadClock() {
    const shown = await read("");
    clock.show(shown.clock, {});
    app.clockState = shown.clock.state;
    return shown.version;
  }
  // after time the games' turns go on outside the event's stream: their turns left are read
  // again every 10 s
  setInterval(() => { if (app.clockState === "time" && !document.hidden) loadClock().catch(() => {}); }, 10000);
  function followEvent(after) {
    if (app.follower) app.follower.close();
    app.follower = window.munchlogLive.followEvent({
      base: API, token: app.token, after: after,
      handle: (item) => {
        if (CLOCK_TYPES.includes(item.type)) loadClock().catch((e) => status(e.message));
        return item.type === "clock_started"; // the clock alone changed
      },
      reload: () => load(app.token, true),
      onPoll: loadClock,
    });
  }

  // A player's seat token for each of its matches (the match's current game): my-game.
  async function fetchSeatTokens() {
    const me = app.data.viewer.player;
    for (const round of app.data.rounds) {
      if (!round.pairings.some((p) => Object.values(p.seats).includes(me))) continue;
      try {
        const mine = await read("/rounds/" + round.round + "/my-game");
        app.seatTokens[mine.game_id] = mine.token;
        if (!round.pairings.some((p) => p.games.includes(mine.game_id))) {
          // a best-of-three's next game, made just now: read the rounds again
          app.data = await read("/export?format=json&games=false");
        }
      } catch (e) { status(e.message); }
    }
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    const d = app.data;
    const role = d.viewer.role;
    const who = role === "player" ? "player " + d.viewer.player : role === "spectator" ? "a spectator" : "the " + role;
    $("viewer-label").textContent = "viewing as " + who;
    $("viewer-label").dataset.role = role;
    $("sign-out").hidden = !app.token;
    $("signin").hidden = !!app.token;
    $("app").hidden = false;
    renderSummary(d);
    // the organizer's forms (api/static/console.js)
    window.munchlogConsole.render($("console"), API, app.token, d, () => load(app.token, true)).catch((e) => status(e.message));
    renderMine(d);
    renderRounds(d);
    renderStandings(d);
    renderPlayers(d);
    renderPenalties(d);
    renderDraw(d);
  }

  function renderSummary(d) {
    const s = d.settings;
    const seats = s.table_size ? "tables of " + s.table_size : s.match + " matches";
    const size = d.cut_size === undefined ? s.top_cut : d.cut_size;
    const cut = size ? ", then a top " + size : "";
    const changed = d.cut_note ? " (" + d.cut_note + ")" : "";
    $("settings").textContent = s.ruleset + " · " + s.format + " format · " + seats + " of " +
      s.round_minutes + " minutes · " + plural(d.swiss_rounds, "Swiss round") + cut + changed;
    const state = { registration: "registration open", running: "running", finished: "finished" }[d.state] || d.state;
    $("state").textContent = capital(state) + (d.winner ? ": won by " + d.winner : "") + " · round " +
      d.round + " of " + d.planned_rounds + " · " + plural(d.players.length, "player");
    // the Swiss rounds stopped: too few active players for another round (docs/rules.md F.2)
    $("end-note").hidden = !d.end_note;
    $("end-note").textContent = d.end_note ? "Ends early: " + said(d.end_note) : "";
    // what the export links give this viewer: only the judge's export is complete; any other
    // says what it leaves out (the export's leaves_out, in words)
    const out = d.leaves_out || [];
    const whose = app.token ? "Your export" : "This export (the public one)";
    const listed = out.length > 1 ? out.slice(0, -1).join(", ") + " and " + out[out.length - 1] : out[0];
    $("export-note").textContent = out.length
      ? whose + " leaves out " + listed + ". Only the judge's export is complete."
      : whose + " is the complete one: every game whole, with its hidden cards and its hash chain.";
  }
  const ordinal = window.munchlogPages.ordinal; // 1st, 21st, 111th (pages.js)
  // the server's words with its references to the docs as a player reads them
  function said(text) {
    return String(text).replace(/docs\/rules\.md ([A-Z]\.\d+)/g, "the rules, section $1").replace(/docs\/[a-z_]+\.md/g, "the rules");
  }

  function roundTitle(d, n) {
    if (n <= d.swiss_rounds) return "Round " + n;
    const back = d.planned_rounds - n;
    return "Round " + n + " · top cut: " + (CUT_NAMES[back] || "elimination");
  }
  function resultOf(d, round, seats) {
    const players = seated(seats).map((x) => x[1]);
    return d.results.find((r) => r.round === round && r.players.join("\n") === players.join("\n"));
  }
  function resultText(result, pairing) {
    if (!result) return "not over";
    if (result.places) { // each seat shows its place; the line names the winner(s)
      const won = Object.keys(result.places).filter((p) => result.places[p] === 1);
      return "won by " + won.join(" and ");
    }
    // the winner's games first (the seats' order in a draw), then the drawn games
    const seats = seated(pairing.seats).map((x) => x[1]);
    const best = Math.max(...seats.map((p) => result.games[p] || 0));
    const winners = seats.filter((p) => (result.games[p] || 0) === best);
    const order = winners.length > 1 ? seats : winners.concat(seats.filter((p) => p !== winners[0]));
    const score = order.map((p) => result.games[p] || 0).join("-") + (result.drawn_games ? "-" + result.drawn_games : "");
    const told = pairing.reported ? " (reported by the " + pairing.reported.by + ")" : "";
    return (winners.length > 1 ? "drawn " + score : winners[0] + " won " + score) + told;
  }

  // The links of one game: replay and table page, with the token this viewer may use there.
  function gameLinks(d, pairing, gameId, index) {
    const role = d.viewer.role;
    let token = null;
    if (role === "judge") token = app.token;
    else if (role === "player") token = app.seatTokens[gameId] || null;
    const frag = token ? "#token=" + encodeURIComponent(token) : "";
    const label = pairing.games.length > 1 ? "game " + (index + 1) + ": " : "";
    return el("span", { class: "links" }, [
      label,
      el("a", { href: "/games/" + gameId + frag, "data-game": gameId, "data-kind": "replay", "data-token": token ? "yes" : "no" }, "replay"),
      " · ",
      el("a", { href: "/games/" + gameId + "/play" + frag, "data-game": gameId, "data-kind": "table", "data-token": token ? "yes" : "no" }, "table page"),
    ]);
  }

  function pairingItem(d, round, pairing) {
    const me = d.viewer.player;
    const seats = seated(pairing.seats);
    const result = resultOf(d, round.round, pairing.seats);
    const mine = d.viewer.role === "player" && seats.some((x) => x[1] === me);
    return el("li", { class: "pairing" + (mine ? " mine" : ""), "data-table": pairing.table }, [
      el("div", { class: "table-no", text: "Table " + pairing.table }),
      el("div", { class: "seats" }, seats.map(([s, p], i) => el("span", { class: "seat" + (p === me ? " me" : "") }, [
        el("span", { class: "seat-letter", text: s }), " ", p,
        result && result.places ? el("span", { class: "place", text: " " + ordinal(result.places[p]) }) : null,
        i < seats.length - 1 ? el("span", { class: "vs", text: seats.length === 2 ? " v" : " ·" }) : null]))),
      el("div", { class: "result" + (result ? "" : " pending"), text: resultText(result, pairing) }),
      el("div", { class: "games" }, pairing.games.map((g, i) => gameLinks(d, pairing, g, i))),
      // a judge corrected this result after it stood (docs/rules.md F.3)
      pairing.reported && pairing.reported.corrected
        ? el("div", { class: "note corrected", text: "Corrected by a judge: " + pairing.reported.corrected.reason }) : null,
      // this round was paired on a result of an earlier round corrected since
      pairing.paired_before_correction
        ? el("div", { class: "note paired-before", text: "Paired before a correction of an earlier round's result" }) : null,
    ]);
  }

  function renderRounds(d) {
    const box = $("rounds");
    if (!d.rounds.length) {
      box.replaceChildren(el("p", { class: "panel note", text: "No round is paired yet." }));
      return;
    }
    const latest = d.rounds.slice().reverse(); // the round being played first
    box.replaceChildren(...latest.map((round) => el("section", { class: "panel round", "data-round": round.round, "aria-labelledby": "round-" + round.round }, [
      el("h3", { id: "round-" + round.round, text: roundTitle(d, round.round) }),
      el("ol", { class: "pairings" }, round.pairings.map((p) => pairingItem(d, round, p))),
      round.byes.length ? el("p", { class: "byes", text: "Bye: " + round.byes.join(", ") }) : null,
    ])));
  }

  function renderMine(d) {
    const me = d.viewer.player;
    $("mine").hidden = d.viewer.role !== "player";
    if (d.viewer.role !== "player") return;
    // check in and report from here (api/static/event_actions.js)
    window.munchlogEventActions.render($("my-actions"), API, app.token, me, () => load(app.token, true));
    const items = [];
    for (const round of d.rounds.slice().reverse()) {
      const pairing = round.pairings.find((p) => Object.values(p.seats).includes(me));
      if (round.byes.includes(me)) items.push(el("li", { text: roundTitle(d, round.round) + ": a bye" }));
      if (!pairing) continue;
      const seat = Object.keys(pairing.seats).find((s) => pairing.seats[s] === me);
      const others = seated(pairing.seats).filter((x) => x[1] !== me).map((x) => x[1]).join(", ");
      const current = pairing.games[pairing.games.length - 1];
      items.push(el("li", {}, [
        el("b", { text: roundTitle(d, round.round) }), ": table " + pairing.table + ", seat " + seat + " against " + others + " · ",
        resultText(resultOf(d, round.round, pairing.seats), pairing), " · ",
        gameLinks(d, pairing, current, pairing.games.length > 1 ? pairing.games.length - 1 : 0),
      ]));
    }
    if (!items.length) items.push(el("li", { text: "Not paired yet." }));
    $("my-games").replaceChildren(...items);
  }

  function renderStandings(d) {
    const me = d.viewer.player;
    const rows = d.standings.map((r) => el("tr", { class: (r.player === me ? "me" : "") + (r.dropped ? " dropped" : ""), "data-player": r.player }, [
      el("td", { text: r.rank }),
      el("th", { scope: "row", text: r.player + (r.dropped ? " (dropped)" : "") }),
      el("td", { text: r.points }),
      el("td", { text: r.wins + "-" + r.losses + "-" + r.draws }),
      el("td", { text: pct(r.omw) }),
      el("td", { text: pct(r.gw) }),
      el("td", { text: pct(r.ogw) }),
    ]));
    $("standings").tBodies[0].replaceChildren(...rows);
    const delayed = d.settings.spectator_delay && d.results_as !== "judge" ? " A spectator delay holds the results back for all but the judges." : "";
    const how = d.settings.table_size ? "points by finishing place, 3-2-1 (the rules, section F.4)" : "the Magic Tournament Rules' Appendix C";
    $("standings-note").textContent = (d.rounds.length ? "After the Swiss rounds" + (d.state === "finished" ? "" : " so far") + " (" + how + "); percentages." : "No round played yet.") + delayed;
  }

  function renderPlayers(d) {
    const me = d.viewer.player;
    $("players").replaceChildren(...d.players.map((p) => el("li", { class: p.player === me ? "me" : "", "data-player": p.player }, [
      el("span", { class: "name", text: p.player }),
      p.dropped_after !== null && p.dropped_after !== undefined ? el("span", { class: "note", text: (p.disqualified ? " disqualified," : "") + " " + window.munchlogPages.droppedWhen(p.dropped_after) }) : null,
      p.decklist_hash ? el("div", { class: "hash", title: "SHA-256 of the salted list", text: "decklist " + p.decklist_hash }) : null,
      p.decklist ? el("details", { class: "decklist" }, [
        el("summary", { text: "decklist: " + (p.hero ? p.hero.name + ", " : "") + plural(p.decklist.reduce((n, e) => n + e.count, 0), "card") }),
        el("ul", {}, p.decklist.map((e) => el("li", { text: e.count + " × " + e.name }))),
        el("p", { class: "hash", text: "salt " + p.salt }),
      ]) : null,
    ])));
  }

  // "game_loss" -> "game loss"
  function words(x) { return String(x).replace(/_/g, " "); }
  // The penalties this caller may see (GET …/penalties' rule: the judges and the organizer
  // all, a player its own, a spectator none), each linked to the ruling in its game's replay;
  // the infraction by the penalty guide's name and section, an upgrade with the guide's count,
  // in the replay viewer's words (pages.js).
  function renderPenalties(d) {
    const role = d.viewer.role;
    $("penalties-panel").hidden = role === "spectator";
    if (role === "spectator") return;
    const rows = d.penalties || [];
    $("penalties-note").textContent = role === "player" ? "Your own penalties in this event's games." : "Every penalty given in this event's games.";
    if (!rows.length) { $("penalties").replaceChildren(el("li", { class: "note", text: "None." })); return; }
    $("penalties").replaceChildren(...rows.map((r) => {
      const token = role === "judge" ? app.token : role === "player" ? app.seatTokens[r.game_id] : null;
      const frag = "#" + (token ? "token=" + encodeURIComponent(token) + "&" : "") + "v=" + r.version;
      const infraction = window.munchlogPages.infractionText(r);
      const upgrade = window.munchlogPages.upgradeText(r);
      return el("li", { "data-player": r.player, "data-game": r.game_id, "data-penalty": r.kind }, [
        el("b", { text: r.player }), " · " + words(r.kind),
        infraction ? el("span", { class: "pen-infraction", "data-infraction": r.infraction, text: " · " + infraction }) : null,
        upgrade ? el("div", { class: "pen-upgrade", "data-escalated-from": r.escalated_from, text: capital(upgrade) }) : null,
        el("div", { class: "note", text: "Round " + r.round + ", table " + r.table + ": " + r.ruling }),
        el("a", { href: "/games/" + r.game_id + frag, "data-kind": "ruling" }, "the ruling in its game (event " + r.version + ")"),
      ]);
    }));
  }

  function renderDraw(d) {
    const rows = [["commitment", d.commitment], ["secret", d.revealed_secret || "revealed with round 1"]];
    $("draw").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { class: "hash", text: v })]));
  }

  // ------------------------------------------------------------------ boot
  load(window.munchlogPages.bootToken(KEY));
})();
