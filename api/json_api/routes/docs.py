"""A self-contained API docs page at ``/api/docs`` (no CDN: it renders /api/openapi.json itself).

flask-smorest's Swagger UI / ReDoc pages load their scripts from CDNs, which a tournament
venue's offline laptop cannot reach; this page is plain HTML and a small script.
"""

from __future__ import annotations

from flask import Blueprint, Response

bp = Blueprint("docs", __name__)

DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>munchlog API</title>
<style>
 body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1em;color:#222}
 h1{margin-bottom:.2em} .op{border:1px solid #ccc;border-radius:6px;margin:.8em 0;padding:.2em .9em}
 .m{display:inline-block;min-width:4.2em;font-weight:bold;text-transform:uppercase}
 .get{color:#1565c0}.post{color:#2e7d32}.put,.patch{color:#ef6c00}.delete{color:#c62828}
 code,pre{font-family:ui-monospace,monospace;font-size:13px}
 pre{background:#f6f6f6;padding:.6em;overflow:auto;border-radius:4px}
 summary{cursor:pointer;padding:.4em 0} table{border-collapse:collapse}
 td,th{border-bottom:1px solid #eee;padding:.2em .6em;text-align:left;vertical-align:top}
</style>
</head>
<body>
<h1 id="title">munchlog API</h1>
<p>Machine-readable spec: <a href="openapi.json">openapi.json</a> (OpenAPI 3).</p>
<div id="ops">Loading&hellip;</div>
<script>
"use strict";
function el(tag, attrs, kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const kid of [].concat(kids || [])) {
    e.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
  }
  return e;
}
function resolve(spec, node, depth) {
  if (depth > 8 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map(n => resolve(spec, n, depth + 1));
  if (node.$ref) {
    const target = node.$ref.replace(/^#\\//, "").split("/")
      .reduce((o, k) => (o || {})[k], spec);
    return resolve(spec, target, depth + 1);
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolve(spec, v, depth + 1);
  return out;
}
function render(spec) {
  document.getElementById("title").textContent =
    (spec.info.title || "API") + " " + (spec.info.version || "");
  const box = document.getElementById("ops");
  box.textContent = "";
  for (const [path, item] of Object.entries(spec.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const head = el("summary", {}, [
        el("span", {class: "m " + method}, method), " ", el("code", {}, path),
        " \\u2014 ", op.summary || ""]);
      const body = [];
      if (op.description) body.push(el("p", {}, op.description));
      const params = (item.parameters || []).concat(op.parameters || [])
        .map(p => resolve(spec, p, 0));
      if (params.length) {
        const rows = params.map(p => el("tr", {}, [
          el("td", {}, el("code", {}, p.name)), el("td", {}, p.in),
          el("td", {}, p.required ? "required" : ""),
          el("td", {}, p.description || JSON.stringify(p.schema || {}))]));
        body.push(el("h4", {}, "Parameters"), el("table", {}, rows));
      }
      if (op.requestBody) {
        const rb = resolve(spec, op.requestBody, 0);
        body.push(el("h4", {}, "Request body"),
          el("pre", {}, JSON.stringify(rb.content, null, 2)));
      }
      const resp = Object.entries(op.responses || {}).map(([code, r]) => {
        const rr = resolve(spec, r, 0);
        return el("details", {}, [el("summary", {}, code + " " + (rr.description || "")),
          el("pre", {}, JSON.stringify(rr.content || {}, null, 2))]);
      });
      body.push(el("h4", {}, "Responses"), ...resp);
      box.append(el("details", {class: "op"}, [head, ...body]));
    }
  }
}
fetch("openapi.json").then(r => r.json()).then(render).catch(err => {
  document.getElementById("ops").textContent = "Could not load openapi.json: " + err;
});
</script>
</body>
</html>
"""


@bp.get("/api/docs")
def docs_page() -> Response:
    """The API reference, rendered in the browser from /api/openapi.json."""
    response = Response(DOCS_HTML, mimetype="text/html")
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "connect-src 'self'"
    )
    return response
