/* munchlog judge's page: a call's ruling form (issue #39; docs/events.md "The judge's page").
 *
 * A module beside judge.js, which shows its "Ruling" button and its form on each open call.
 * The form reads the call's game's disputes (GET /api/games/<id>/disputes: public, as their
 * rulings are), lets the judge take one or raise a new one at the call's version (POST
 * …/disputes, from_version = to_version = the call's), records the ruling on it (POST
 * …/disputes/<dispute_id>/ruling: what was decided, and a penalty for a player with the penalty
 * guide's infraction, both optional) and resolves the call with that dispute (POST
 * /api/events/<id>/calls/<call_id> {"action": "resolve", "dispute_id", "note"}, the note
 * being the one typed beside the call's buttons). Each step is kept as it succeeds, so a
 * refusal at the next is said in words under the form and trying again neither raises nor
 * rules twice. Only a judge rules, and on a call another judge holds or the head judges were
 * handed only a head judge (the staff member asking is GET /api/events/<id>'s staff_member):
 * to any other token the button says so instead of opening the form; the API's 403, should it
 * come, is said in words too.
 * The penalties and infractions to choose from are written into the page by the server
 * (<template id="ruling-choices">, api/pages/floor.py, from domain/penalties.py).
 */
"use strict";
(function () {
  const { el, postJSON, readJSON, seatName, penaltyText } = window.munchlogPages;
  // call_id -> { open, disputes (null: not read), reading, unread (a read refused), chosen, error, busy }
  const forms = new Map();

  // The API's refusals of a ruling or a call's step in a judge's words (its messages name
  // disputes and calls by their ids); any other, as the API says it.
  const WORDS = {
    "dispute/already_ruled": "another judge ruled on this dispute meanwhile: its ruling is shown above",
    "rule/escalated_to_head_judges": "the call was handed to the head judges: only a head judge acts on it now",
    "rule/call_escalated": "the call is with the head judges already",
    "rule/call_resolved": "the call is resolved already",
    "event/call_not_found": "this event has no such call any more",
  };
  function refusalWords(e) {
    const code = e.body && e.body.error && e.body.error.code;
    if (code === "rule/call_claimed") return /^you /.test(e.message) ? "you hold this call already" : "another judge holds this call";
    if (WORDS[code]) return WORDS[code];
    if (e.status === 403) return "only a judge of this event does this, and this token is not a judge's";
    if (e.status === 401) return "this token is no longer valid here; sign in again";
    return e.message.replace(/\.$/, "");
  }

  function mount(page) {
    // page: { api, token(), role(), me() (GET /api/events/<id>'s staff_member), players(call),
    // rerender(), resolved(call) }
    function formOf(call) {
      if (!forms.has(call.call_id)) forms.set(call.call_id, { open: false, disputes: null, chosen: "", error: "", busy: false });
      return forms.get(call.call_id);
    }
    const game = (call) => "/api/games/" + encodeURIComponent(call.game_id);
    const auth = () => ({ Authorization: "Bearer " + page.token() });

    async function readDisputes(call) {
      const f = formOf(call);
      try {
        const first = f.disputes === null;
        f.disputes = (await readJSON(game(call) + "/disputes", auth())).disputes;
        // first the newest open dispute, if there is one (a new one otherwise)
        if (first || !f.disputes.some((d) => d.dispute_id === f.chosen)) {
          const open = f.disputes.filter((d) => d.status === "open");
          f.chosen = open.length ? open[open.length - 1].dispute_id : "";
        }
      } catch (e) {
        f.error = said("The game's disputes could not be read", e);
        f.unread = true; // until the form is opened again
      }
      f.reading = false;
      page.rerender();
    }
    function kept(f, dispute) {
      const i = f.disputes.findIndex((d) => d.dispute_id === dispute.dispute_id);
      if (i < 0) f.disputes.push(dispute);
      else f.disputes[i] = dispute;
    }

    // A refusal, in words, for the step it stopped at.
    function said(step, e) { return step + ": " + refusalWords(e) + "."; }
    function who(raised, players) {
      if (raised === "judge") return "a judge";
      if (raised === "table") return "the table";
      return seatName(raised, players);
    }
    function disputeWords(d, players) {
      const statement = d.statement.length > 60 ? d.statement.slice(0, 57) + "…" : d.statement;
      return (d.status === "ruled" ? "Ruled · " : "Open · ") + "raised by " + who(d.raised_by, players) + ": " + statement;
    }

    // Why this token may not rule on the call (a ruling the call could not then be resolved
    // with: the API's rules, docs/rules.md F.8), in words; null when it may.
    function notMine(call) {
      if (page.role() !== "judge") return "Only a judge records a ruling: a " + page.role() + "'s token does not rule.";
      const me = page.me() || {};
      if (me.role === "head_judge") return null;
      if (call.state === "escalated") return "This call was handed to the head judges: only a head judge rules on it now.";
      const held = call.claimed_by;
      if (held && held.staff_id !== me.staff_id) return held.name + " has this call: only they or a head judge rule on it.";
      return null;
    }

    function toggle(call) {
      const f = formOf(call);
      f.open = !f.open;
      f.error = "";
      f.unread = false;
      page.rerender();
    }

    async function submit(call, form, note) {
      const f = formOf(call);
      const values = {}; // read before anything re-renders the form
      for (const name of ["statement", "ruling", "penalty", "seat", "infraction"]) {
        const e = form.elements.namedItem(name);
        values[name] = e ? e.value.trim() : "";
      }
      const field = (name) => values[name];
      const kind = field("penalty");
      if (kind && !field("seat")) { f.error = "Say which player the penalty is for."; page.rerender(); return; }
      f.busy = true;
      f.error = "";
      page.rerender();
      let step = "The dispute was not raised";
      try {
        if (!f.chosen) {
          const body = { statement: field("statement") };
          if (call.version >= 1) Object.assign(body, { from_version: call.version, to_version: call.version });
          const raised = await postJSON(game(call) + "/disputes", page.token(), body);
          kept(f, raised.dispute);
          f.chosen = raised.dispute.dispute_id;
        }
        const dispute = f.disputes.find((d) => d.dispute_id === f.chosen);
        if (dispute.status !== "ruled") {
          step = "The ruling was not recorded";
          const body = { ruling: field("ruling") };
          if (kind) body.penalty = Object.assign({ kind: kind, seat: field("seat") }, field("infraction") ? { infraction: field("infraction") } : {});
          kept(f, (await postJSON(game(call) + "/disputes/" + encodeURIComponent(f.chosen) + "/ruling", page.token(), body)).dispute);
        }
        step = "The call was not resolved";
        const body = { action: "resolve", dispute_id: f.chosen };
        if (note) body.note = note;
        await postJSON(page.api + "/calls/" + encodeURIComponent(call.call_id), page.token(), body);
        f.open = false;
        page.resolved(call);
      } catch (e) {
        f.error = said(step, e);
        if (step === "The ruling was not recorded") readDisputes(call); // perhaps ruled meanwhile
      } finally {
        f.busy = false;
        page.rerender();
      }
    }

    function labelled(text, control, hint) {
      return el("label", { class: "field" }, [el("span", { class: "field-name", text: text }), control, hint ? el("small", { class: "hint", text: hint }) : null]);
    }
    function choice(name, key, label) {
      const select = document.getElementById("ruling-choices").content.querySelector("select[name='" + name + "']").cloneNode(true);
      select.setAttribute("data-keep", key + name);
      select.setAttribute("aria-label", label);
      return select;
    }

    // The form's fields for a dispute not ruled yet (a new one: what is disputed first).
    function rulingFields(call, f, key) {
      const players = page.players(call);
      const seats = Object.keys(players).sort();
      return [
        f.chosen ? null : labelled("What the players disagree about",
          el("input", { type: "text", name: "statement", maxlength: "2000", required: true, "data-keep": key + "statement", placeholder: "e.g. whether the Curse could be played then" }),
          "Raised at the moment of the call, so the replay shows it there. Everyone who may see the game reads it: name no card in a hand."),
        labelled("Your ruling",
          el("textarea", { name: "ruling", rows: "3", maxlength: "2000", required: true, "data-keep": key + "ruling", placeholder: "what you decided, as you tell the players" }),
          "Written into the game's record, for everyone who may see the game."),
        labelled("Penalty", choice("penalty", key, "penalty"), "A game loss or more ends the game for that player at once."),
        labelled("Given to",
          el("select", { name: "seat", "data-keep": key + "seat", "aria-label": "the player given the penalty" }, [
            el("option", { value: "", text: "choose the player" }),
            ...seats.map((s) => el("option", { value: s, text: seatName(s, players) })),
          ]),
          "Only with a penalty."),
        labelled("Infraction", choice("infraction", key, "infraction"),
          "From the penalty guide; named, a repeat of it in this event is upgraded as the guide says."),
      ];
    }

    function panel(call, note) {
      const f = formOf(call);
      if (!f.open) return null;
      const why = notMine(call);
      if (why) return el("div", { class: "ruling", "data-ruling": "refused" }, [el("p", { class: "ruling-error", role: "alert", text: why })]);
      const key = call.call_id + ":rule:";
      const error = f.error ? el("p", { class: "ruling-error", role: "alert", text: f.error }) : null;
      if (f.disputes === null) {
        if (!f.reading && !f.unread) { f.reading = true; readDisputes(call); }
        return el("div", { class: "ruling" }, [error || el("p", { class: "note", text: "Reading the game's disputes…" })]);
      }
      const players = page.players(call);
      const dispute = f.disputes.find((d) => d.dispute_id === f.chosen);
      const pick = el("select", {
        name: "dispute", "aria-label": "the dispute ruled on",
        onchange: (ev) => { f.chosen = ev.target.value; f.error = ""; page.rerender(); },
      }, [el("option", { value: "", text: "A new dispute about this call" }),
        ...f.disputes.map((d) => el("option", { value: d.dispute_id, text: disputeWords(d, players) }))]);
      pick.value = f.chosen;
      const ruled = dispute && dispute.status === "ruled" ? dispute.rulings[dispute.rulings.length - 1] : null;
      const form = el("form", {
        class: "ruling", "data-call-id": call.call_id,
        onsubmit: (ev) => { ev.preventDefault(); if (!f.busy) submit(call, ev.target, note.value.trim()); },
      }, [
        el("h3", { text: "Ruling for table " + call.table }),
        labelled("Dispute", pick, f.disputes.length ? "The game's disputes; a ruled one resolves the call with the ruling it has." : "This game has none yet: the ruling starts one."),
        ...(ruled ? [el("p", { class: "ruled", "data-ruled": f.chosen }, [
          el("b", { text: "Ruled: " }), ruled.ruling,
          ruled.penalty ? el("span", { class: "ruled-penalty", text: " · " + penaltyText(ruled.penalty, (s) => seatName(s, players)) }) : null,
        ])] : rulingFields(call, f, key)),
        el("p", { class: "hint", text: "The note beside the call's buttons goes with the resolution: the player who called reads it." }),
        error,
        el("button", { type: "submit", class: "primary", disabled: f.busy, text: f.busy ? "Recording…" : ruled ? "Resolve the call with this ruling" : "Record the ruling and resolve the call" }),
      ]);
      return form;
    }

    function button(call) {
      const f = formOf(call);
      return el("button", { type: "button", "data-action": "rule", "aria-expanded": f.open ? "true" : "false", text: f.open ? "Close the ruling" : "Ruling", onclick: () => toggle(call) });
    }

    return { button: button, panel: panel };
  }

  window.munchlogRuling = { mount: mount, refusalWords: refusalWords };
})();
