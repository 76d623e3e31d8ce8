/* munchlog live: follow a game as it is recorded (docs/streams.md).
 *
 *   const live = munchlogLive.follow({ game, token, after, onEvent, onStatus });
 *   ...
 *   live.close();
 *
 * onEvent(item) gets each stored event after `after` once, in order, as this viewer may see it
 * (an item of GET /api/games/<id>/events, with its `version`). onStatus(s) gets "connecting",
 * "live" (a Server-Sent Events stream is open), "polling" (no stream could be opened: GET
 * /events every few seconds instead) or "offline" (the last attempt failed; trying again).
 *
 * The token never goes into a URL: a stream is opened with a single-use ticket from
 * POST /stream-tickets (sent with the token in the Authorization header), and a stream that
 * drops is opened again with a new ticket after the last version received (EventSource would
 * retry with the used ticket, so it is closed on its first error instead).
 *
 * An event's stream (GET /api/events/<id>/stream: each new event of the event, `version` its
 * own): follow({ base: "/api/events/<id>", onPoll, ... }); with no stream, onPoll() is called
 * every few seconds instead (an event has no list of its events to poll).
 */
(function () {
  "use strict";

  const POLL_MS = 2000;
  const RETRY_MS = [500, 1000, 2000, 5000, 10000, 15000];
  const STREAM_TRIES = 3; // failed stream attempts in a row before polling
  const RETRY_STREAM_MS = 30000; // while polling, try a stream again this often

  function follow(opts) {
    const base = opts.base || "/api/games/" + encodeURIComponent(opts.game);
    const headers = opts.token ? { Authorization: "Bearer " + opts.token } : {};
    const onEvent = opts.onEvent || function () {};
    const onStatus = opts.onStatus || function () {};
    let last = Number(opts.after || 0);
    let source = null;
    let timer = null;
    let closed = false;
    let failures = 0;
    let polling = false;
    let pollingSince = 0;
    let status = null;

    function say(s) { if (s !== status) { status = s; onStatus(s); } }

    function deliver(item) {
      if (!item || typeof item.version !== "number" || item.version <= last) return;
      last = item.version;
      try { onEvent(item); } catch (e) { console.error(e); }
    }

    function later(fn, ms) { clearTimeout(timer); if (!closed) timer = setTimeout(fn, ms); }

    async function openStream() {
      if (closed) return;
      say("connecting");
      let ticket;
      try {
        const r = await fetch(base + "/stream-tickets", { method: "POST", headers: headers });
        if (!r.ok) throw new Error("ticket " + r.status);
        ticket = await r.json();
      } catch (e) {
        return streamFailed();
      }
      if (closed) return;
      const url = ticket.url + (ticket.url.indexOf("?") < 0 ? "?" : "&") + "after=" + last;
      const es = new EventSource(url);
      source = es;
      let opened = false;
      es.onopen = function () { opened = true; failures = 0; polling = false; say("live"); };
      es.onmessage = function (m) {
        try { deliver(JSON.parse(m.data)); } catch (e) { console.error(e); }
      };
      es.addEventListener("stream-error", function () { es.close(); source = null; streamFailed(); });
      es.onerror = function () {
        es.close();
        if (source === es) source = null;
        if (closed) return;
        if (opened) { failures = 0; say("offline"); later(openStream, RETRY_MS[0]); }
        else streamFailed();
      };
    }

    function streamFailed() {
      if (closed) return;
      failures += 1;
      if (failures >= STREAM_TRIES) {
        if (!polling) { polling = true; pollingSince = Date.now(); }
        return poll();
      }
      say("offline");
      later(openStream, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
    }

    async function poll() {
      if (closed) return;
      if (Date.now() - pollingSince > RETRY_STREAM_MS) { failures = STREAM_TRIES - 1; pollingSince = Date.now(); return openStream(); }
      if (opts.onPoll) {
        say("polling");
        try { await opts.onPoll(); } catch (e) { say("offline"); }
        return later(poll, POLL_MS);
      }
      try {
        for (;;) {
          const r = await fetch(base + "/events?after=" + last + "&limit=500", { headers: headers });
          if (!r.ok) throw new Error("events " + r.status);
          const page = await r.json();
          say("polling");
          page.events.forEach(deliver);
          if (page.next_after == null || closed) break;
        }
      } catch (e) {
        say("offline");
      }
      later(poll, POLL_MS);
    }

    openStream();
    return {
      close: function () {
        closed = true;
        clearTimeout(timer);
        if (source) source.close();
        source = null;
      },
      get last() { return last; },
      get status() { return status; },
    };
  }

  // An event page's follower (the event page, the judge's page): each message to `handle`,
  // which returns true when it has dealt with it; the others reload the page's data once per
  // burst (`reload`, 300 ms after the last); `onPoll` (default `reload`) while polling; the
  // #live line says how the page follows.
  function followEvent(opts) {
    let pending = null;
    const live = document.getElementById("live");
    return follow({
      base: opts.base, token: opts.token, after: opts.after,
      onEvent: (item) => {
        if (opts.handle(item)) return;
        clearTimeout(pending);
        pending = setTimeout(opts.reload, 300);
      },
      onPoll: opts.onPoll || opts.reload,
      onStatus: (s) => { live.textContent = s; live.dataset.live = s; },
    });
  }
  window.munchlogLive = { follow: follow, followEvent: followEvent };
})();
