/* munchlog event page: the round's forms of the console (issue #44, console.js mounts them),
 * usable from a phone: report a result of the latest round (POST /api/events/<id>/rounds/<n>/
 * results: the organizer, a judge, a scorekeeper), correct a result that stands in any round
 * (POST …/rounds/<n>/correction, with the reason: a judge) and give one table of the round more
 * time (POST …/clock, action extend: the organizer or a judge). Each refusal is said in words
 * beside the form that was refused. Also what console.js shares: wire() (a form's submit, its
 * answer or refusal said in its status line) and the datalists of names the forms offer.
 */
"use strict";
(function () {
  const { el } = window.munchlogPages;
  const send = window.munchlogPages.postJSON;

  // A form's submit: run() says what was done (its words shown in `said`), or the refusal
  // after `no`; then the page reloads its data when run() asks (done).
  function wire(form, said, no, run) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const words = await run();
        if (words !== undefined) said.textContent = words;  // else run() showed its own
      } catch (e) { said.textContent = no + ": " + e.message; }
    });
    return form;
  }

  function status(id) { return el("p", { id: id, class: "note said", role: "status" }); }

  // A pairing's players in seat order.
  function seated(pairing) { return Object.keys(pairing.seats).sort().map((s) => pairing.seats[s]); }

  // The boxes of a result: games won by each player and the drawn games (a match), or each
  // player's place (a table); and the body they give.
  function scoreBoxes(players) {
    const table = players.length > 2;
    const box = (name, label, max, value) => el("label", { class: "count" }, [label + " ", el("input", {
      type: "number", name: name, min: table ? "1" : "0", max: String(max), value: String(value), inputmode: "numeric", "aria-label": label,
    })]);
    if (table) return players.map((p, i) => box(p, p + "'s place", players.length, i + 1));
    return [...players.map((p) => box(p, p + " won", 3, 0)), box("drawn_games", "drawn", 3, 0)];
  }
  function scoreBody(form, players) {
    const value = (n) => Number(form.elements[n].value);
    if (players.length > 2) return { places: Object.fromEntries(players.map((p) => [p, value(p)])) };
    return { games: Object.fromEntries(players.map((p) => [p, value(p)])), drawn_games: value("drawn_games") };
  }
  function resultWords(r) {
    if (r.places) return Object.entries(r.places).sort((a, b) => a[1] - b[1]).map(([p, n]) => p + " " + window.munchlogPages.ordinal(n)).join(", ");
    const games = Object.entries(r.games || {}).map(([p, n]) => p + " " + n).join(", ");
    return games + (r.drawn_games ? ", " + r.drawn_games + " drawn" : "");
  }

  // What was typed in the report forms of `before` (and a refusal said there), put back in
  // the same table's form of `part`: the event's stream reloads the page while one types.
  function keepTyped(before, part) {
    for (const form of before ? before.querySelectorAll("form[data-table]") : []) {
      const again = part.querySelector("form[data-table='" + form.dataset.table + "']");
      if (!again) continue;
      for (const input of form.elements) if (input.name && again.elements[input.name]) again.elements[input.name].value = input.value;
      again.querySelector("[role=status]").textContent = form.querySelector("[role=status]").textContent;
    }
    return part;
  }

  // The latest round's pairings with no result yet, each with its report form. Drawn again on
  // each load (the pairings change), keeping what was typed.
  function resultsPart(api, token, data, done) {
    const round = data.rounds[data.rounds.length - 1];
    const part = el("div", { id: "console-results", class: "console-form" }, [el("h3", { text: "Results" })]);
    if (!round) { part.append(el("p", { class: "note", text: "No round paired yet." })); return part; }
    const decided = new Set(data.results.filter((r) => r.round === round.round).map((r) => r.players.join("|")));
    const open = round.pairings.filter((p) => !decided.has(seated(p).join("|")));
    if (!open.length) part.append(el("p", { class: "note", text: "Every result of round " + round.round + " is in." }));
    else part.append(el("p", { class: "note", text: "Round " + round.round + ": a result the games did not give (time, a match played on paper)." }));
    for (const pairing of open) {
      const players = seated(pairing);
      const said = el("span", { class: "note", role: "status" });
      const form = el("form", { class: "console-result", "data-table": pairing.table }, [
        el("b", { text: "Table " + pairing.table + ": " }), ...scoreBoxes(players),
        el("button", { type: "submit", text: "Report" }), " ", said,
      ]);
      part.append(wire(form, said, "Not reported", async () => {
        await send(api + "/rounds/" + round.round + "/results", token, { table: pairing.table, ...scoreBody(form, players) });
        done();
        return "Reported.";
      }));
    }
    return part;
  }

  // Correct a result that stands (a judge): the reported results of every round to choose
  // from, the result's boxes for the one chosen, the reason. Its choices follow each load.
  function correctionPart(api, token, done) {
    const pick = el("select", { id: "console-correct-which", "aria-label": "the result to correct" });
    const boxes = el("span", { class: "boxes" });
    const reason = el("input", { id: "console-correct-reason", class: "reason", "aria-label": "why", placeholder: "why (said to the players)", required: true, maxlength: "500" });
    const said = status("console-corrected");
    let pairings = {};
    const chosen = () => pairings[pick.value];
    pick.addEventListener("change", () => boxes.replaceChildren(...(chosen() ? scoreBoxes(chosen().players) : [])));
    const form = el("form", { id: "console-correct", class: "console-form" }, [
      el("h3", { text: "Correct a result" }),
      el("p", { class: "note", text: "A result that stands, in any round: the standings follow, the later rounds stay as paired." }),
      pick, " ", boxes, " ", reason, " ", el("button", { type: "submit", text: "Correct" }), said,
    ]);
    wire(form, said, "Not corrected", async () => {
      const p = chosen();
      if (!p) throw new Error("choose the result to correct first");
      const body = { table: p.table, reason: reason.value.trim(), ...scoreBody(form, p.players) };
      await send(api + "/rounds/" + p.round + "/correction", token, body);
      reason.value = "";
      pick.value = "";
      boxes.replaceChildren();
      done();
      return "Round " + p.round + ", table " + p.table + " corrected.";
    });
    form.refresh = (data) => {
      const next = {};
      for (const r of data.rounds) for (const p of r.pairings) {
        if (p.reported) next[r.round + ":" + p.table] = { round: r.round, table: p.table, players: seated(p), reported: p.reported };
      }
      const keep = pick.value;
      const options = [el("option", { value: "", text: Object.keys(next).length ? "choose a result" : "no reported result yet" }),
        ...Object.entries(next).map(([k, p]) => el("option", { value: k, text: "Round " + p.round + ", table " + p.table + ": " + resultWords(p.reported) }))];
      if (options.map((o) => o.text).join("|") !== [...pick.options].map((o) => o.text).join("|")) {
        pick.replaceChildren(...options);
        pick.value = next[keep] ? keep : "";
      }
      pairings = next;
      if (!chosen()) boxes.replaceChildren();
    };
    return form;
  }

  // More time for one table of the current round (MTR 2.5), with the reason.
  function extensionPart(api, token, done) {
    const table = el("select", { id: "console-extend-table", "aria-label": "the table" });
    const minutes = el("input", { id: "console-extend-minutes", type: "number", min: "1", max: "120", value: "3", inputmode: "numeric", "aria-label": "minutes" });
    const reason = el("input", { id: "console-extend-reason", class: "reason", "aria-label": "why", placeholder: "why (a ruling, a deck check)", required: true, maxlength: "500" });
    const said = status("console-extended");
    const form = el("form", { id: "console-extend", class: "console-form" }, [
      el("h3", { text: "More time for a table" }), table, " ",
      el("label", { class: "count" }, ["minutes ", minutes]), " ", reason, " ", el("button", { type: "submit", text: "Give the time" }), said,
    ]);
    wire(form, said, "No time given", async () => {
      const body = { action: "extend", table: Number(table.value), minutes: Number(minutes.value), reason: reason.value.trim() };
      await send(api + "/clock", token, body);
      reason.value = "";
      done();
      return "Table " + body.table + ": " + body.minutes + " more minute(s).";
    });
    form.refresh = (data) => {
      const round = data.rounds[data.rounds.length - 1];
      const tables = round ? round.pairings.map((p) => String(p.table)) : [];
      if ([...table.options].map((o) => o.value).join() === tables.join()) return;
      const keep = table.value;
      table.replaceChildren(...tables.map((t) => el("option", { value: t, text: "Table " + t })));
      if (tables.includes(keep)) table.value = keep;
    };
    return form;
  }

  // The names the forms offer as they are typed (<datalist>s, refreshed on each load): the
  // players, those still in, those who dropped.
  function namesLists() {
    const groups = {
      "console-names": () => true,
      "console-active": (p) => p.dropped_after == null,
      "console-dropped-names": (p) => p.dropped_after != null && !p.disqualified,
    };
    return Object.entries(groups).map(([id, keep]) => {
      const list = el("datalist", { id: id });
      list.refresh = (data) => list.replaceChildren(...data.players.filter(keep).map((p) => el("option", { value: p.player })));
      return list;
    });
  }

  window.munchlogConsoleRound = {
    wire: wire, status: status, resultsPart: resultsPart, keepTyped: keepTyped, correctionPart: correctionPart,
    extensionPart: extensionPart, namesLists: namesLists,
  };
})();
