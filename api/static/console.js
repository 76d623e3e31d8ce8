/* munchlog event page: the organizer's console (issue #44, docs/events.md "The organizer's
 * console"): forms over the existing API, each refusal said in words where it was made.
 * Register players by pasting a list (POST /api/events/<id>/players, one request a player):
 * blocks separated by blank lines, a block's first line the player's name and the rest its
 * list as text (`Hero: <name>`, `<count> <card name>`: decklist_text); a block of names alone
 * (a classic event's players bring no list) registers each line. Each registration's link,
 * `/events/<id>#token=…` (the token is shown once), is listed to print and hand out. Pair the
 * next round (POST …/rounds), start, pause and resume its clock (POST …/clock), report a
 * result of its latest round (POST …/rounds/<n>/results), drop a player (POST …/drops). event.js mounts it for the organizer's token; it is built once
 * per sign-in, so the links survive the stream's reloads.
 */
"use strict";
(function () {
  const { el, status } = window.munchlogPages;

  const send = window.munchlogPages.postJSON;

  // One registration body a player of the pasted text (the module docstring).
  function entries(text) {
    const out = [];
    for (const block of text.split(/\n\s*\n/)) {
      const lines = block.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
      if (!lines.length) continue;
      const listed = lines.length > 1 && /^(hero\s*:|\d+\s)/i.test(lines[1]);
      if (listed) out.push({ player: lines[0], decklist_text: lines.slice(1).join("\n") });
      else for (const name of lines) out.push({ player: name });
    }
    return out;
  }

  // The handouts: only the players' links, one slip each (event.css's print rules), then the
  // page as it was.
  function printHandouts() {
    document.body.classList.add("printing-handouts");
    window.addEventListener("afterprint", () => document.body.classList.remove("printing-handouts"), { once: true });
    window.print();
  }

  function registerPart(api, token, done) {
    const area = el("textarea", {
      id: "console-players", rows: "8", "aria-label": "players to register",
      placeholder: "ann\nHero: Sample Orc Warrior\n3 Sample Goblin\n…\n\nbob\n…",
    });
    const links = el("ol", { id: "console-links", class: "handouts" });
    const form = el("form", { id: "console-register", class: "console-form" }, [
      el("h3", { text: "Register players" }),
      el("p", { class: "note", text: "Paste the players: a blank line between two, each one's name on its first line, then its list as text (Hero: <name>, then <count> <card name> a line). A classic event's players bring no list: one name a line. Each link below is shown once: print the page or copy them, and hand each player its own." }),
      area, el("button", { type: "submit", text: "Register" }), " ",
      el("button", { id: "console-print", type: "button", text: "Print the handouts", onclick: printHandouts }), links,
    ]);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const bodies = entries(area.value);
      if (!bodies.length) { status("Nothing to register: paste the players first."); return; }
      let refused = 0;
      for (const body of bodies) {
        try {
          const made = await send(api + "/players", token, body);
          const link = location.origin + location.pathname + "#token=" + made.token;
          links.append(el("li", { class: "registered", "data-player": made.player }, [
            el("b", { text: made.player }), ": ", el("a", { href: link, text: link }),
          ]));
        } catch (e) {
          refused += 1;
          links.append(el("li", { class: "refused", "data-player": body.player, text: body.player + ": refused: " + e.message }));
        }
      }
      area.value = "";
      status(refused ? refused + " of " + bodies.length + " refused (said below)." : bodies.length + " registered.");
      done();
    });
    return form;
  }

  function pairPart(api, token, done) {
    const said = el("p", { id: "console-paired", class: "note", role: "status" });
    const button = el("button", { id: "console-pair", type: "button", text: "Pair the next round" });
    button.addEventListener("click", async () => {
      try {
        const round = await send(api + "/rounds", token);
        said.textContent = "Round " + round.round + " paired: " + round.pairings.length + " table(s)" +
          (round.byes.length ? ", a bye for " + round.byes.join(", ") : "") + ".";
        done();
      } catch (e) { said.textContent = "Not paired: " + e.message; }
    });
    // the round's clock (POST …/clock): each button one action, its refusal said beside it
    const clockButtons = ["start", "pause", "resume"].map((action) => {
      const b = el("button", { type: "button", class: "clock-action", "data-action": action, text: action[0].toUpperCase() + action.slice(1) + " the clock" });
      b.addEventListener("click", async () => {
        try {
          await send(api + "/clock", token, { action: action });
          said.textContent = "Clock: " + action + (action.endsWith("e") ? "d" : "ed") + ".";
          done();
        } catch (e) { said.textContent = "Clock not changed: " + e.message; }
      });
      return b;
    });
    return el("div", { class: "console-form" }, [el("h3", { text: "Rounds" }), button, " ", ...clockButtons, said]);
  }

  // Drop a player (POST …/drops): never paired again, its rounds kept.
  function dropPart(api, token, done) {
    const name = el("input", { id: "console-drop-player", "aria-label": "the player to drop", placeholder: "player", required: true });
    const said = el("p", { id: "console-dropped", class: "note", role: "status" });
    const form = el("form", { id: "console-drop", class: "console-form" }, [
      el("h3", { text: "Drop a player" }), name, " ", el("button", { type: "submit", text: "Drop" }), said,
    ]);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const dropped = await send(api + "/drops", token, { player: name.value.trim() });
        said.textContent = dropped.player + " dropped after round " + dropped.after_round + ".";
        name.value = "";
        done();
      } catch (e) { said.textContent = "Not dropped: " + e.message; }
    });
    return form;
  }

  // The latest round's pairings with no result yet, each with its report form (POST
  // …/rounds/<n>/results): games won by each player and the drawn games, or each player's
  // place at a table. Drawn again on each load (the pairings change).
  function resultsPart(api, token, data, done) {
    const round = data.rounds[data.rounds.length - 1];
    const part = el("div", { id: "console-results", class: "console-form" }, [el("h3", { text: "Results" })]);
    if (!round) { part.append(el("p", { class: "note", text: "No round paired yet." })); return part; }
    const decided = new Set(data.results.filter((r) => r.round === round.round).map((r) => r.players.join("|")));
    const open = round.pairings.filter((p) => !decided.has(Object.keys(p.seats).sort().map((s) => p.seats[s]).join("|")));
    if (!open.length) part.append(el("p", { class: "note", text: "Every result of round " + round.round + " is in." }));
    for (const pairing of open) {
      const players = Object.keys(pairing.seats).sort().map((s) => pairing.seats[s]);
      const table = players.length > 2;
      const box = (name, label, max) => el("label", { class: "count" }, [label + " ", el("input", { type: "number", name: name, min: "0", max: String(max), value: "0", "aria-label": label })]);
      const said = el("span", { class: "note", role: "status" });
      const form = el("form", { class: "console-result", "data-table": pairing.table }, [
        el("b", { text: "Table " + pairing.table + ": " }),
        ...players.map((p) => box(p, table ? p + "'s place" : p + " won", table ? players.length : 3)),
        table ? null : box("drawn_games", "drawn", 3),
        el("button", { type: "submit", text: "Report" }), " ", said,
      ]);
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const value = (n) => Number(form.elements[n].value);
        const body = table
          ? { table: pairing.table, places: Object.fromEntries(players.map((p) => [p, value(p)])) }
          : { table: pairing.table, games: Object.fromEntries(players.map((p) => [p, value(p)])), drawn_games: value("drawn_games") };
        try {
          await send(api + "/rounds/" + round.round + "/results", token, body);
          done();
        } catch (e) { said.textContent = "Not reported: " + e.message; }
      });
      part.append(form);
    }
    return part;
  }

  function render(box, api, token, data, done) {
    const mine = data.viewer.role === "organizer" && token;
    box.hidden = !mine;
    if (!mine) { box.replaceChildren(); delete box.dataset.token; return; }
    if (box.dataset.token !== token) {  // built once a sign-in: its links are kept
      box.dataset.token = token;
      box.replaceChildren(el("h2", { text: "Organizer console" }), registerPart(api, token, done), pairPart(api, token, done),
        el("div", { id: "console-results" }), dropPart(api, token, done));
    }
    box.querySelector("#console-results").replaceWith(resultsPart(api, token, data, done));
  }

  window.munchlogConsole = { render: render };
})();
