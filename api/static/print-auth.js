/* The decklists' print page without a token (api/pages/prints.py): ask for it again with the
 * event token the event page keeps in this tab (sessionStorage), sent only as "Authorization:
 * Bearer", so no token is ever in a URL; then show what the server answered. */
"use strict";
(() => {
  const event = document.body.dataset.eventId;
  const token = sessionStorage.getItem("munchlog-event-token:" + event);
  const status = document.getElementById("print-status");
  if (!token) return;
  fetch(location.pathname, { headers: { Authorization: "Bearer " + token } })
    .then(async (response) => {
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        status.textContent = "Refused: " + ((body.error && body.error.message) || response.status);
        return;
      }
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      document.body.replaceWith(document.adoptNode(page.body));
    })
    .catch(() => { status.textContent = "The server could not be reached."; });
})();
