/* munchlog home page: the organizer's form that opens an event (issue #44): POST /api/events
 * with the organizer token typed in (kept nowhere); the new event's links are shown once: the
 * event page signed in as the organizer (its console) and the judge's link (the judge token,
 * shown only in this answer). A refusal is said in words under the form.
 */
"use strict";
(function () {
  const { el } = window.munchlogPages;
  const form = document.getElementById("open-form");
  const said = document.getElementById("opened");
  const NUMBERS = ["round_minutes", "rounds", "top_cut"];

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const token = document.getElementById("open-token").value.trim();
    const body = {};
    for (const input of form.elements) {
      if (!input.name || input.value === "") continue;
      body[input.name] = NUMBERS.includes(input.name) ? Number(input.value) : input.value;
    }
    try {
      const found = await window.munchlogPages.postJSON("/api/events", token, body);
      const page = location.origin + "/events/" + found.event_id;
      said.replaceChildren(
        el("p", { class: "opened" }, ["Opened. ", el("a", { id: "opened-console", href: page + "#token=" + token, text: "Its page, with the organizer's console" })]),
        el("p", { class: "note" }, ["The judge's link, shown once (keep it): ", el("a", { id: "opened-judge", href: page + "#token=" + found.judge_token, text: page + "#token=" + found.judge_token })]),
      );
    } catch (e) {
      said.replaceChildren(el("p", { class: "refused", text: "Not opened: " + e.message }));
    }
  });
})();
