// Values in their unit's human form, for the status page's header, tooltips and metrics:
// nanoseconds as "4.0 s" or "250 ms", bytes as "1.5 MiB", counts as "12.3 k". A flame graph series
// is "<sample type>/<unit>" (cpu/nanoseconds, alloc_space/bytes, samples/count).
"use strict";

const kTimeUnits = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };
const kByteUnits = { bytes: 1, kilobytes: 1024, megabytes: 1 << 20 };

// One decimal below 100, none above: "4.0", "12.5", "250".
function scaled(n, div, suffix) {
  const v = n / div;
  return (Math.abs(v) >= 100 || (div === 1 && Number.isInteger(v)) ? String(Math.round(v)) : v.toFixed(1)) +
         (suffix ? " " + suffix : "");
}

function timeText(ns) {
  const abs = Math.abs(ns);
  if (abs >= 3600e9) return scaled(ns, 3600e9, "h");
  if (abs >= 60e9) return scaled(ns, 60e9, "min");
  if (abs >= 1e9) return scaled(ns, 1e9, "s");
  if (abs >= 1e6) return scaled(ns, 1e6, "ms");
  if (abs >= 1e3) return scaled(ns, 1e3, "µs");
  return scaled(ns, 1, "ns");
}

function byteText(b) {
  const abs = Math.abs(b);
  for (const [div, suffix] of [[2 ** 40, "TiB"], [2 ** 30, "GiB"], [2 ** 20, "MiB"], [2 ** 10, "KiB"]])
    if (abs >= div) return scaled(b, div, suffix);
  return scaled(b, 1, "B");
}

// A count: "950", "12.3 k", "4.0 M", "2.1 G", followed by `noun` when given ("12.3 k objects").
function countText(n, noun) {
  const abs = Math.abs(n);
  let text = scaled(n, 1, "");
  for (const [div, suffix] of [[1e9, "G"], [1e6, "M"], [1e3, "k"]]) {
    if (abs >= div) {
      text = scaled(n, div, suffix);
      break;
    }
  }
  return noun ? text + " " + noun : text;
}

// `n` in `unit` (an OTLP sample unit, or "B" for bytes); "–" when there is no number.
function valueText(n, unit) {
  if (n === null || n === undefined || !isFinite(n)) return "–";
  const u = (unit || "").toLowerCase();
  if (u in kTimeUnits) return timeText(n * kTimeUnits[u]);
  if (u === "b" || u in kByteUnits) return byteText(n * (kByteUnits[u] || 1));
  if (u === "" || u === "count" || u === "samples") return countText(n, "");
  return countText(n, unit);
}

// The unit of a series type: "cpu/nanoseconds" -> "nanoseconds"; "" when it has none.
function unitOf(type) {
  const slash = (type || "").lastIndexOf("/");
  return slash < 0 ? "" : type.slice(slash + 1);
}

if (typeof module !== "undefined") module.exports = { valueText, unitOf };
