/* What the pages share (viewer.js, table.js): a JSON read from the API that throws the API's
 * error message (with its HTTP status on the error) when it refuses, and el(), which makes an
 * element from its attributes and children (no HTML strings anywhere). */
(function () {
  "use strict";
  async function readJSON(url, headers) {
    const r = await fetch(url, { headers: headers || {}, cache: "no-store" });
    const body = await r.json().catch(() => null);
    if (!r.ok) {
      const err = new Error((body && body.error && body.error.message) || "HTTP " + r.status);
      err.status = r.status;
      err.body = body;
      throw err;
    }
    return body;
  }
  function el(tag, attrs, kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = String(v);
      else if (k === "class") e.className = v;
      else if (k === "style") Object.assign(e.style, v); // CSSOM: allowed by the pages' CSP
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of [].concat(kids || [])) {
      if (kid === null || kid === undefined || kid === false) continue;
      e.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
    }
    return e;
  }
  window.munchlogPages = { readJSON: readJSON, el: el };
})();
