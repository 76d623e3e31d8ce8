/* munchlog table page: "Call a judge" (issue #39, docs/events.md "Judge calls").
 *
 * A module of its own beside table.js: in a game of an event (its labels name the event and
 * the table), a seat's token (the one table.js keeps in this tab's sessionStorage) calls a
 * judge to the table with POST /api/events/<id>/calls; the server takes the game and its
 * version then. Outside an event the button stays hidden.
 */
"use strict";
(() => {
  const GAME = document.body.dataset.gameId;
  const KEY = "munchlog-token:" + GAME;
  const box = document.getElementById("judge-call");
  const form = document.getElementById("judge-call-form");
  const note = document.getElementById("judge-call-note");
  const said = document.getElementById("judge-call-status");
  let where = null;
  let token = null;

  async function look() {
    const now = sessionStorage.getItem(KEY);
    if (now === token) return;
    token = now;
    where = null;
    box.hidden = true;
    if (!token) return;
    try {
      const response = await fetch("/api/games/" + GAME, { headers: { Authorization: "Bearer " + token } });
      if (!response.ok) return;
      const labels = (await response.json()).labels || {};
      if (labels.event_id && labels.table) {
        where = { event: String(labels.event_id), table: Number(labels.table) };
        box.hidden = false;
      }
    } catch (e) { /* the page itself says when the server cannot be reached */ }
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!where || !token) return;
    const button = form.querySelector("button");
    button.disabled = true;
    said.textContent = "calling a judge…";
    try {
      const response = await fetch("/api/events/" + encodeURIComponent(where.event) + "/calls", {
        method: "POST",
        headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
        body: JSON.stringify({ table: where.table, note: note.value }),
      });
      const body = await response.json().catch(() => ({}));
      if (response.ok) {
        said.textContent = "A judge is called to table " + where.table + " (at version " + body.version + ").";
        said.dataset.callId = body.call_id;
        note.value = "";
      } else {
        said.textContent = "Not called: " + ((body.error && body.error.message) || response.status);
      }
    } catch (e) {
      said.textContent = "Not called: the server could not be reached.";
    } finally {
      button.disabled = false;
    }
  });

  look();
  setInterval(look, 2000);
})();
