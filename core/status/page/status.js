// proflow status page: polls /api/status for the pipelines and /api/flamegraph for the flame graph.
// No dependencies: the daemon serves this file and units.js (valueText) itself, and the page works offline.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { series: [], tree: null, zoom: [], search: "", lastFlameKey: "" };
// The selection can come from the address (?service=...&type=...&window=...&compare=...&search=...),
// and the address follows the selection, so a view can be shared as a link.
const initial = new URLSearchParams(location.search);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function duration(s) {
  if (s < 120) return Math.round(s) + " s";
  if (s < 7200) return Math.round(s / 60) + " min";
  return (s / 3600).toFixed(1) + " h";
}

// ---- pipelines -------------------------------------------------------------------------------

function componentBox(c) {
  const box = el("div", "component " + c.kind);
  box.dataset.component = c.kind + ":" + c.id;
  box.appendChild(el("div", "kind", c.kind));
  box.appendChild(el("div", "name", c.id));
  const r = c.rates;
  box.appendChild(el("div", "rates", r ? `${valueText(r.profiles)} profiles/s · ${valueText(r.samples)} samples/s · ${valueText(r.bytes, "B")}/s`
                                       : "rates: waiting for a second sample"));
  const counts = el("div", "counts");
  const part = (label, v) => {
    const s = el("span", v > 0 ? "bad" : "", `${label} ${valueText(v)}`);
    counts.appendChild(s);
    counts.appendChild(document.createTextNode("  "));
  };
  part("refused", c.refused);
  part("errors", c.errors);
  counts.appendChild(el("span", "", `dropped ${valueText(c.dropped)}`));
  box.appendChild(counts);
  if (c.queue_capacity > 0) {
    const q = el("div", "queue");
    q.title = `queue ${c.queue_size} / ${c.queue_capacity}`;
    const fill = el("div");
    fill.style.width = Math.min(100, (100 * c.queue_size) / c.queue_capacity) + "%";
    q.appendChild(fill);
    box.appendChild(q);
    box.appendChild(el("div", "counts", `queue ${c.queue_size} / ${c.queue_capacity}`));
  }
  if (c.last_error) {
    const when = new Date(c.last_error.unix_seconds * 1000).toLocaleTimeString();
    box.appendChild(el("div", "error", `${when}: ${c.last_error.message}`));
  }
  const t = c.totals;
  box.title = `${c.kind} ${c.id}\nreceived ${valueText(t.received_profiles)} profiles, ${valueText(t.received_samples)} samples\n` +
              `accepted ${valueText(t.accepted_profiles)} · sent ${valueText(t.sent_profiles)} · failed ${valueText(t.failed_profiles)}`;
  return box;
}

function renderPipelines(st) {
  const byKey = new Map(st.components.map((c) => [c.kind + "|" + c.id + "|" + c.pipeline, c]));
  const root = $("pipelines");
  root.replaceChildren();
  for (const p of st.pipelines) {
    const div = el("div", "pipeline");
    div.dataset.pipeline = p.name;
    div.appendChild(el("div", "pipeline-name", p.name));
    const stages = el("div", "stages");
    const stage = (items) => {
      const s = el("div", "stage");
      items.forEach((c) => c && s.appendChild(componentBox(c)));
      return s;
    };
    const groups = [p.receivers.map((id) => byKey.get("receiver|" + id + "|"))];
    p.processors.forEach((id) => groups.push([byKey.get("processor|" + id + "|" + p.name)]));
    groups.push(p.exporters.map((id) => byKey.get("exporter|" + id + "|")));
    groups.forEach((g, i) => {
      if (i) stages.appendChild(el("div", "arrow", "→"));
      stages.appendChild(stage(g));
    });
    div.appendChild(stages);
    root.appendChild(div);
  }
  $("version").textContent = "v" + st.version;
  const h = $("health");
  h.textContent = st.healthy ? "healthy" : "unhealthy";
  h.className = "badge " + (st.healthy ? "ok" : "bad");
  $("uptime").textContent = "up " + duration(st.uptime_seconds);
  $("updated").textContent = "updated " + new Date().toLocaleTimeString();
  if (!st.flamegraph) $("flame-section").hidden = true;
}

async function pollStatus() {
  try {
    const r = await fetch("api/status", { cache: "no-store" });
    if (r.ok) renderPipelines(await r.json());
  } catch (e) {
    $("updated").textContent = "the daemon does not answer";
  }
}

// ---- flame graph -----------------------------------------------------------------------------

function fillSelect(sel, values, keep) {
  const wanted = initial.get(sel.id);
  const current = wanted !== null && values.includes(wanted) ? wanted : keep ? sel.value : "";
  if (wanted !== null && values.includes(wanted)) initial.delete(sel.id);
  sel.replaceChildren(...values.map((v) => el("option", "", v)));
  if (values.includes(current)) sel.value = current;
}

function remember() {
  const p = new URLSearchParams();
  for (const id of ["service", "type", "window", "compare", "search"]) if ($(id).value) p.set(id, $(id).value);
  history.replaceState(null, "", "?" + p.toString());
}

async function pollSeries() {
  const r = await fetch("api/flamegraph/series", { cache: "no-store" });
  if (!r.ok) return;
  state.series = (await r.json()).series;
  const services = [...new Set(state.series.map((s) => s.service))];
  fillSelect($("service"), services, true);
  updateTypes();
}

function updateTypes() {
  const types = state.series.filter((s) => s.service === $("service").value).map((s) => s.type);
  fillSelect($("type"), types, true);
}

function query(format) {
  const p = new URLSearchParams({ service: $("service").value, type: $("type").value, window: $("window").value });
  if (format) p.set("format", format);
  else if ($("compare").value && $("compare").value !== $("window").value) p.set("compare", $("compare").value);
  return "api/flamegraph?" + p.toString();
}

async function loadFlame() {
  if (!$("service").value || !$("type").value) {
    $("flame-info").textContent = "No profiles have passed through the pipelines in the last 15 minutes.";
    $("flame").replaceChildren();
    return;
  }
  $("pprof").href = query("pprof");
  remember();
  const r = await fetch(query(), { cache: "no-store" });
  if (!r.ok) {
    $("flame-info").textContent = await r.text();
    return;
  }
  const data = await r.json();
  state.tree = data;
  const key = data.service + "|" + data.type;
  if (key !== state.lastFlameKey) state.zoom = [];
  state.lastFlameKey = key;
  renderFlame();
}

// The zoom path is kept as names so it survives a refresh of the data.
function zoomNode() {
  let node = state.tree.root;
  const path = [node];
  for (const name of state.zoom) {
    const next = (node.c || []).find((c) => c.n === name);
    if (!next) break;
    node = next;
    path.push(node);
  }
  return path;
}

function color(node, total, compared) {
  if (compared) {
    const delta = (node.v - (node.b || 0)) / Math.max(1, total);
    const t = Math.min(1, Math.abs(delta) * 8);
    if (t < 0.02) return "rgb(232, 233, 236)";  // unchanged
    if (delta > 0) return `rgb(255, ${Math.round(235 - 150 * t)}, ${Math.round(225 - 170 * t)})`;
    return `rgb(${Math.round(230 - 160 * t)}, ${Math.round(235 - 110 * t)}, 255)`;
  }
  let h = 0;
  for (let i = 0; i < node.n.length; i++) h = (h * 31 + node.n.charCodeAt(i)) >>> 0;
  return `hsl(${20 + (h % 35)}, ${70 + (h % 20)}%, ${62 + (h % 12)}%)`;
}

function renderFlame() {
  const data = state.tree;
  const box = $("flame");
  box.replaceChildren();
  const path = zoomNode();
  const focus = path[path.length - 1];
  const compared = data.compare !== undefined;
  const unit = unitOf(data.type);
  const width = box.clientWidth || 1000;
  const rowHeight = 18;
  let re = null;
  if (state.search) {
    try { re = new RegExp(state.search, "i"); } catch (e) { re = null; }
  }
  let matched = 0, maxDepth = 0, count = 0;
  const add = (node, depth, x, w, isAncestor) => {
    const frame = el("div", "frame", node.n);
    frame.style.left = (100 * x) + "%";
    frame.style.width = `calc(${100 * w}% - 1px)`;
    frame.style.top = depth * rowHeight + "px";
    frame.style.background = color(node, data.total, compared);
    const pct = (100 * node.v) / Math.max(1, data.total);
    let tip = `${node.n}\n${valueText(node.v, unit)} (${pct.toFixed(2)}% of ${data.window})`;
    if (compared) tip += `\n${$("compare").value} average for ${data.window}: ${valueText(node.b, unit)} (${node.v >= node.b ? "+" : ""}${valueText(node.v - node.b, unit)})`;
    frame.title = tip;
    if (re && re.test(node.n)) frame.classList.add("match");
    if (isAncestor) frame.classList.add("dim");
    frame.onclick = () => {
      const idx = path.indexOf(node);
      state.zoom = idx >= 0 ? state.zoom.slice(0, Math.max(0, idx)) : namesTo(node);
      renderFlame();
    };
    box.appendChild(frame);
    maxDepth = Math.max(maxDepth, depth);
    count++;
  };
  // Ancestors of the focus span the whole width; the focus's subtree fills it.
  path.slice(0, -1).forEach((n, d) => add(n, d, 0, 1, true));
  const base = path.length - 1;
  const minFraction = 0.5 / width;  // narrower than half a pixel: not drawn
  // `inMatch`: an ancestor matched already, so this node's value is counted once (recursion).
  const walk = (node, depth, x, scale, inMatch) => {
    if (count > 6000) return;
    add(node, depth, x, node.v * scale, false);
    const hit = re !== null && re.test(node.n);
    if (hit && !inMatch) matched += node.v;
    let cx = x;
    for (const c of node.c || []) {
      const w = c.v * scale;
      if (w >= minFraction) walk(c, depth + 1, cx, scale, inMatch || hit);
      cx += w;
    }
  };
  walk(focus, base, 0, focus.v > 0 ? 1 / focus.v : 0, false);
  box.style.height = (maxDepth + 1) * rowHeight + 4 + "px";
  parents = new Map();
  index(state.tree.root, null);
  let info = `${data.service} · ${data.type} · last ${data.window}: ${valueText(data.total, unit)} in ${valueText(data.samples)} samples`;
  if (compared) info += ` · compared with the ${data.compare} average (${valueText(data.compare_total, unit)} for the same length)`;
  if (state.zoom.length) info += ` · zoomed on ${focus.n}`;
  if (re) info += ` · search matches ${((100 * matched) / Math.max(1, focus.v)).toFixed(1)}%`;
  $("flame-info").textContent = info;
}

// Parent links for zooming on a frame below the current focus.
let parents = new Map();
function index(node, parent) {
  parents.set(node, parent);
  for (const c of node.c || []) index(c, node);
}
function namesTo(node) {
  const names = [];
  for (let n = node; n && parents.get(n); n = parents.get(n)) names.unshift(n.n);
  return names;
}

async function pollFlame() {
  try {
    await pollSeries();
    await loadFlame();
  } catch (e) {
    $("flame-info").textContent = "flame graph unavailable: " + e;
  }
}

$("service").onchange = () => { updateTypes(); state.zoom = []; loadFlame(); };
$("type").onchange = () => { state.zoom = []; loadFlame(); };
$("window").onchange = loadFlame;
$("compare").onchange = loadFlame;
$("search").oninput = (e) => { state.search = e.target.value; if (state.tree) renderFlame(); };
$("reset").onclick = () => { state.zoom = []; if (state.tree) renderFlame(); };
window.onresize = () => { if (state.tree) renderFlame(); };

for (const id of ["window", "compare"]) if (initial.has(id)) $(id).value = initial.get(id);
if (initial.has("search")) $("search").value = state.search = initial.get("search");

pollStatus();
pollFlame();
setInterval(pollStatus, 2000);
setInterval(pollFlame, 10000);
