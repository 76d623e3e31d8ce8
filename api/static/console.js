/* munchlog event page: the organizer's console (issue #44, docs/events.md "The organizer's
 * console"): forms over the existing API, each refusal said in words where it was made.
 * Register players by pasting a list (POST /api/events/<id>/players, one request a player):
 * blocks separated by blank lines, a block's first line the player's name and the rest its
 * list as text (`Hero: <name>`, `<count> <card name>`: decklist_text); a block of names alone
 * (a classic event's players bring no list) registers each line. Each registration's link,
 * `/events/<id>#token=…` (the token is shown once), is listed to print and hand out. Pair the
 * next round (POST …/rounds), start, pause and resume its clock (POST …/clock), drop a player
 * (POST …/drops) or bring one back (POST …/readmissions), add staff (POST …/staff, its link
 * shown once), give a player or a staff member a new token (POST …/players/<name>/token,
 * …/staff/<id>/token: the old link stops working, the new one is shown once); the round's
 * forms (results, a correction, more time) are console_round.js's. event.js mounts it for the
 * organizer's token and the staff's, each seeing the forms its role may use; it is built once
 * per sign-in, so the links survive the stream's reloads (its lists follow each load).
 */
"use strict";
(function () {
  const { el, status } = window.munchlogPages;

  const send = window.munchlogPages.postJSON;
  const round = window.munchlogConsoleRound;

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

  // A player's handout: its name and its link (the event page signed in as it).
  function handoutItem(player, token) {
    const link = location.origin + location.pathname + "#token=" + token;
    return el("li", { class: "registered", "data-player": player }, [el("b", { text: player }), ": ", el("a", { href: link, text: link })]);
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
          links.append(handoutItem(made.player, made.token));
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

  // Pair the next round (the organizer) and run its clock (the organizer, a judge).
  function roundPart(api, token, role, done) {
    const said = el("p", { id: "console-paired", class: "note", role: "status" });
    const button = role === "organizer" ? el("button", { id: "console-pair", type: "button", text: "Pair the next round" }) : null;
    if (button) button.addEventListener("click", async () => {
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
    return el("div", { class: "console-form buttons" }, [el("h3", { text: "The round" }), button, ...clockButtons, said]);
  }

  // A form of one player's name (offered from a datalist) and one button.
  function nameForm(id, title, list, label, button) {
    const name = el("input", { id: id + "-player", list: list, "aria-label": label, placeholder: "player", required: true, autocomplete: "off" });
    const said = round.status(id + "-said");
    const form = el("form", { id: id, class: "console-form" }, [el("h3", { text: title }), name, " ", el("button", { type: "submit", text: button }), said]);
    return { form: form, name: name, said: said };
  }

  // Drop a player (POST …/drops): never paired again, its rounds kept; bring one back before
  // the next round is paired (POST …/readmissions).
  function playersPart(api, token, done) {
    const drop = nameForm("console-drop", "Drop a player", "console-active", "the player to drop", "Drop");
    drop.said.id = "console-dropped";
    round.wire(drop.form, drop.said, "Not dropped", async () => {
      const dropped = await send(api + "/drops", token, { player: drop.name.value.trim() });
      drop.name.value = "";
      done();
      return dropped.player + " " + window.munchlogPages.droppedWhen(dropped.after_round) + ".";
    });
    const back = nameForm("console-readmit", "Bring a dropped player back", "console-dropped-names", "the player to bring back", "Bring back");
    round.wire(back.form, back.said, "Not brought back", async () => {
      const made = await send(api + "/readmissions", token, { player: back.name.value.trim() });
      back.name.value = "";
      done();
      return made.player + " is back: paired again from round " + made.from_round + ".";
    });
    return [drop.form, back.form];
  }

  // A link to hand out, shown once: the event page signed in with `token`.
  function handout(who, token) {
    const link = location.origin + location.pathname + "#token=" + token;
    return el("span", { class: "handout" }, [who + "'s link, shown once: ", el("a", { href: link, text: link })]);
  }

  // Name a staff member (POST …/staff): its link shown once.
  function staffPart(api, token, done) {
    const name = el("input", { id: "console-staff-name", "aria-label": "the staff member's name", placeholder: "name", required: true, maxlength: "100" });
    const role = el("select", { id: "console-staff-role", "aria-label": "role" }, [
      el("option", { value: "judge", text: "judge" }), el("option", { value: "head_judge", text: "head judge" }),
      el("option", { value: "scorekeeper", text: "scorekeeper (results and drops)" }),
    ]);
    const said = round.status("console-staff-said");
    const form = el("form", { id: "console-staff", class: "console-form" }, [
      el("h3", { text: "Add staff" }), name, " ", role, " ", el("button", { type: "submit", text: "Add" }), said,
    ]);
    return round.wire(form, said, "Not added", async () => {
      const who = name.value.trim();
      const made = await send(api + "/staff", token, { name: who, role: role.value });
      name.value = "";
      said.replaceChildren(handout(who, made.token));
      done();
    });
  }

  // A new token for a player (the organizer, a head judge) or a staff member (the organizer):
  // the old one stops working at once; the new link is shown once.
  function tokensPart(api, token, organizer, done) {
    const player = nameForm("console-reissue", "A lost link: a new token", "console-names", "the player", "New token for the player");
    const again = async (path, who, said) => {
      const made = await send(api + path, token);
      said.replaceChildren(handout(who, made.token), " (the old link no longer works)");
      done();
      return made.token;
    };
    round.wire(player.form, player.said, "No new token", async () => {
      const who = player.name.value.trim();
      if (!who) throw new Error("name the player first");
      const fresh = await again("/players/" + encodeURIComponent(who) + "/token", who, player.said);
      player.name.value = "";
      // the handouts (the organizer's): the old link struck out, the new one listed to print
      const links = document.getElementById("console-links");
      if (!links) return;
      for (const li of links.querySelectorAll("li.registered")) {
        if (li.dataset.player !== who) continue;
        li.className = "replaced";
        li.append(" (replaced: the new link is below)");
      }
      links.append(handoutItem(who, fresh));
    });
    if (!organizer) return player.form;
    const member = el("select", { id: "console-reissue-staff", "aria-label": "the staff member" });
    player.form.refreshStaff = (data) => {
      const staff = (data.staff || []).filter((m) => m.staff_id !== "event-judge");
      const texts = staff.map((m) => m.name + " (" + m.role.replace("_", " ") + ")");
      if (staff.length && [...member.options].map((o) => o.text).join("|") === texts.join("|")) return;
      member.replaceChildren(...(staff.length ? staff.map((m, i) => el("option", { value: m.staff_id, text: texts[i] }))
        : [el("option", { value: "", text: "no staff added yet" })]));
    };
    const said = round.status("console-reissue-staff-said");
    const staffForm = el("form", { id: "console-reissue-staff-form", class: "console-form" }, [member, " ", el("button", { type: "submit", text: "New token for the staff member" }), said]);
    round.wire(staffForm, said, "No new token", () => {
      if (!member.value) throw new Error("no staff member to choose: add one first");
      return again("/staff/" + encodeURIComponent(member.value) + "/token", member.selectedOptions[0].text, said);
    });
    player.form.append(staffForm);
    return player.form;
  }

  const TITLES = { organizer: "Organizer console", judge: "Judge console", scorekeeper: "Scorekeeper console" };

  // The parts a role may use (the API checks them again): a player's new token is the
  // organizer's and a head judge's (the event's own judge token is one; a staff judge says its
  // role in the event's staff_member), not a floor judge's.
  function build(api, token, role, done, member) {
    const head = role === "organizer" || (role === "judge" && (!member || member.role === "head_judge"));
    // the round's forms first (a phone's first screen during a round), then the rest
    const parts = [el("h2", { text: TITLES[role] }), ...round.namesLists()];
    if (role !== "scorekeeper") parts.push(roundPart(api, token, role, done));
    parts.push(el("div", { id: "console-results" }));
    if (role === "judge") parts.push(round.correctionPart(api, token, done));
    else if (role === "organizer") parts.push(el("p", { class: "note", id: "console-correct-note", text: "A result that stands is corrected by a judge: the judge's link, or a judge you add below, shows the form." }));
    if (role !== "scorekeeper") parts.push(round.extensionPart(api, token, done));
    if (role === "organizer") parts.push(registerPart(api, token, done));
    if (role !== "judge") parts.push(...playersPart(api, token, done));
    if (role === "organizer") parts.push(staffPart(api, token, done));
    if (head) parts.push(tokensPart(api, token, role === "organizer", done));
    return parts;
  }

  // A staff judge's role (head or floor judge): the event's staff_member, said to that member
  // only; the event's own judge token is none of the staff (a head judge).
  async function memberOf(api, token, role) {
    if (role !== "judge") return null;
    const event = await window.munchlogPages.readJSON(api, { Authorization: "Bearer " + token }).catch(() => ({}));
    return event.staff_member || null;
  }

  async function render(box, api, token, data, done) {
    const role = data.viewer.role;
    const mine = token && TITLES[role];
    box.hidden = !mine;
    if (!mine) { box.replaceChildren(); delete box.dataset.token; return; }
    if (box.dataset.token !== token) {  // built once a sign-in: its links are kept
      box.dataset.token = token;
      box.built = memberOf(api, token, role).then((member) => box.replaceChildren(...build(api, token, role, done, member)));
    }
    await box.built;
    for (const part of box.querySelectorAll("form, datalist")) {
      if (part.refresh) part.refresh(data);
      if (part.refreshStaff) part.refreshStaff(data);
    }
    const before = box.querySelector("#console-results");
    before.replaceWith(round.keepTyped(before, round.resultsPart(api, token, data, done)));
  }

  window.munchlogConsole = { render: render };
})();
