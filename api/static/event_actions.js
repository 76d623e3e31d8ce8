/* munchlog event page: what a signed-in player does from its phone (issue #38, docs/events.md
 * "Running a round"): check in for the round (POST /api/events/<id>/check-in) and report its
 * match's or table's result (POST /api/events/<id>/rounds/<n>/report), the result that stands,
 * the other reports awaited or a dispute for the judges shown as GET /api/events/<id> tells this
 * player (its own report only; who else has reported). event.js mounts it in "Your games" and
 * renders it again on each load (the event's stream reloads the page's data).
 */
"use strict";
(function () {
  const { el, status } = window.munchlogPages;

  const send = window.munchlogPages.postJSON;

  function number(name, label) {
    return el("label", { class: "count" }, [label + " ", el("input", {
      type: "number", name: name, min: "0", max: "3", value: "0", inputmode: "numeric", "aria-label": label,
    })]);
  }

  // The report form of one pairing: wins, losses and draws from the player's side, or a
  // place for every player of a table.
  function reportForm(api, token, round, pairing, me, done) {
    const players = Object.keys(pairing.seats).sort().map((s) => pairing.seats[s]);
    const table = players.length > 2;
    const fields = table
      ? players.map((p) => el("label", { class: "place" }, [p + " ", el("select", { name: p, "aria-label": "place of " + p },
        players.map((_, i) => el("option", { value: String(i + 1), text: String(i + 1) })))]))
      : [number("wins", "won"), number("losses", "lost"), number("draws", "drawn")];
    const form = el("form", { class: "report", "data-round": round }, [
      el("span", { class: "report-what", text: table ? "Places:" : "Your games:" }),
      ...fields, el("button", { type: "submit", text: "Report round " + round }),
    ]);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const value = (n) => Number(form.elements[n].value);
      const body = table
        ? { places: Object.fromEntries(players.map((p) => [p, value(p)])) }
        : { wins: value("wins"), losses: value("losses"), draws: value("draws") };
      try {
        await send(api + "/rounds/" + round + "/report", token, body);
        status("Reported.");
        done();
      } catch (e) { status(e.message); }
    });
    return form;
  }

  // Where the player's pairing of the latest round stands: its result, the reports awaited,
  // a dispute, or the form.
  function reportPart(api, token, shown, me, done) {
    const round = shown.rounds[shown.rounds.length - 1];
    if (!round) return null;
    const pairing = round.pairings.find((p) => Object.values(p.seats).includes(me));
    if (!pairing) return null;
    const by = pairing.reported_by || [];
    if (pairing.reported) {
      const note = pairing.reported.corrected ? "; corrected by a judge: " + pairing.reported.corrected.reason : "";
      return el("p", { class: "report-state", "data-state": "stands", text: "Round " + round.round + ": the result stands (reported by the " + pairing.reported.by + note + ")." });
    }
    const parts = [];
    if (pairing.dispute && pairing.dispute.open) {
      parts.push(el("p", { class: "report-state", "data-state": "dispute", text: "Round " + round.round + ": the reports differ; a judge will settle it. You may report again." }));
    } else if (by.includes(me)) {
      const waiting = Object.values(pairing.seats).filter((p) => !by.includes(p));
      parts.push(el("p", { class: "report-state", "data-state": "waiting", text: "Round " + round.round + ": reported; waiting for " + waiting.join(", ") + "." }));
    }
    parts.push(reportForm(api, token, round.round, pairing, me, done));
    return el("div", {}, parts);
  }

  function checkInPart(api, token, shown, me, done) {
    const option = shown.check_in;
    if (!option || shown.state === "finished") return null;
    const rounds = option.rounds || {};
    const here = Object.keys(rounds).filter((n) => rounds[n].checked_in.includes(me)).map(Number);
    const missed = Object.keys(rounds).filter((n) => rounds[n].no_shows.includes(me)).map(Number);
    const button = el("button", { type: "button", id: "check-in", text: here.length ? "Check in for the next round" : "Check in" });
    button.addEventListener("click", async () => {
      try {
        const made = await send(api + "/check-in", token);
        status("Checked in for round " + made.round + ".");
        done();
      } catch (e) { status(e.message); }
    });
    const said = here.length ? "Checked in for round " + Math.max(...here) + "." : "Not checked in yet.";
    const late = missed.length ? " A no-show in round " + missed.join(", ") + " (a game loss, IPG 3.1)." : "";
    return el("p", { class: "check-in", "data-checked-in": here.join(",") }, [said + late + " ", button]);
  }

  // Render the player's actions into ``box`` from GET /api/events/<id> as this player sees it.
  async function render(box, api, token, me, done) {
    if (!token || !me) { box.replaceChildren(); return; }
    try {
      const shown = await window.munchlogPages.readJSON(api, { Authorization: "Bearer " + token });
      const row = shown.players.find((p) => p.player === me);
      if (row && row.dropped_after !== null && row.dropped_after !== undefined) {
        box.replaceChildren(el("p", { class: "note", text: "Dropped after round " + row.dropped_after + (row.drop_reason ? ": " + row.drop_reason : "") + "." }));
        return;
      }
      // what the player was typing survives a reload (another player's report, a check-in)
      const typing = box.querySelector("form.report");
      const kept = typing ? { round: typing.dataset.round, values: Array.from(typing.elements).filter((e) => e.name).map((e) => [e.name, e.value]) } : null;
      box.replaceChildren(...[checkInPart(api, token, shown, me, done), reportPart(api, token, shown, me, done)].filter(Boolean));
      const form = box.querySelector("form.report");
      if (form && kept && form.dataset.round === kept.round) {
        for (const [name, value] of kept.values) if (form.elements[name]) form.elements[name].value = value;
      }
    } catch (e) { status(e.message); }
  }

  window.munchlogEventActions = { render: render };
})();
