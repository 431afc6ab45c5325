// pikeshot serve: the page. Plain JavaScript, no build step, no network but
// this server. The page's state is `doc`, the JSON mirror of the scenario's
// TOML document; the server converts it to TOML and back (/api/toml,
// /api/parse) and runs it through the CLI's own run path (/api/run).
// This file holds the state, the helpers, running and the results; the
// form (controls and the errors beside them) is form.js, loaded before it.
"use strict";

const $ = (sel, el = document) => el.querySelector(sel);
const CLIENT = Math.random().toString(36).slice(2) + Date.now().toString(36);

let META = null;          // /api/systems
let doc = null;           // the scenario as JSON
let origin = null;        // { id, doc } of the shipped scenario loaded, for --set
let lastToml = "";        // the TOML of `doc`, as the server wrote it
let runGen = 0;           // the latest run asked for
let runTimer = null;
let controller = null;    // aborts the run in flight when a newer one starts
let lastMethod = "exact"; // how the odds shown were found
let kindChange = null;    // { unit, kind } of a kind just chosen, until its run ends
let notice = null;        // { path, text }: keys the form just dropped, and why

// ---------------------------------------------------------------- helpers

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

async function api(path, body, signal) {
  const r = await fetch(path, body === undefined ? { signal } : {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body), signal,
  });
  const text = await r.text();
  let data;
  // A scenario (/api/parse) keeps its decimals as written; see parseJson.
  try { data = path === "/api/parse" ? parseJson(text) : JSON.parse(text); } catch { data = { error: { kind: "http", message: `${r.status}: ${text}` } }; }
  if (!r.ok && !data.error) data = { error: { kind: "http", message: `${r.status}: ${text}` } };
  return data;
}

// A number written with a decimal point (TOML's float) stays one through
// the page: JSON.parse would make `1.0` the integer 1, and the TOML the
// server writes back would then hold `1`. `parseJson` keeps such a number
// as its source text (JSON.rawJSON), which JSON.stringify writes as is.
const RAW = typeof JSON.rawJSON === "function";
const isRaw = (v) => RAW && JSON.isRawJSON(v);
function parseJson(text) {
  return JSON.parse(text, (k, v, ctx) =>
    RAW && typeof v === "number" && ctx && typeof ctx.source === "string" && /[.eE]/.test(ctx.source) ? JSON.rawJSON(ctx.source) : v);
}
// A decimal number from the text `t` ("2", "2.5"), keeping its decimal point.
function decimal(t) {
  const x = Number(t);
  if (t.trim() === "" || !Number.isFinite(x)) return t;
  if (!RAW) return x;
  const text = String(x);
  return JSON.rawJSON(/[.eE]/.test(text) ? text : text + ".0");
}
const isTable = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !isRaw(v);
const sys = () => META.systems.find((s) => s.id === doc.system) || null;
const pct = (p) => (p === null || p === undefined || Number.isNaN(p)) ? "–" : (100 * p).toFixed(2) + "%";
const num3 = (x) => (x === null || x === undefined || Number.isNaN(x)) ? "–" : x.toFixed(3);
function signed(x, kind) {
  if (x === null || x === undefined || Number.isNaN(x)) return "–";
  const s = kind === "probability" ? (100 * x).toFixed(2) + " pp" : x.toFixed(3);
  return (x > 0 ? "+" : x < 0 ? "−" : "±") + s.replace("-", "");
}

// A text control's value: true/false, a whole number, a number, a JSON
// list or table, or else the text as a string.
function loose(text) {
  const t = text.trim();
  if (t === "true") return true;
  if (t === "false") return false;
  if (/^-?\d+$/.test(t)) return parseInt(t, 10);
  if (/^-?\d+\.\d+([eE][-+]?\d+)?$/.test(t)) return decimal(t);
  if (/^[[{]/.test(t)) { try { return parseJson(t); } catch { /* a string */ } }
  return text;
}
const shown = (v) => (typeof v === "string" ? v : JSON.stringify(v));

// ---------------------------------------------------------------- state in the URL

function b64url(s) {
  const bytes = new TextEncoder().encode(s);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function unb64url(s) {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
function saveUrl() {
  const state = { doc, method: $("#method").value, origin: origin && origin.id };
  history.replaceState(null, "", "#s=" + b64url(JSON.stringify(state)));
}

// ---------------------------------------------------------------- running

// A run starts 250 ms after the last change (typing a number is one run,
// not one a keystroke). `runTimer` is null unless one is pending.
function scheduleRun() {
  clearTimeout(runTimer);
  runTimer = setTimeout(() => { runTimer = null; runNow(); }, 250);
}

async function runNow() {
  const gen = ++runGen;
  if (controller) controller.abort();
  controller = new AbortController();
  const status = $("#status");
  status.className = "busy"; status.dataset.state = "busy"; status.textContent = "computing…";
  delete status.dataset.progress;
  const t0 = performance.now();
  let answer;
  try {
    const conv = await api("/api/toml", { doc }, controller.signal);
    if (gen !== runGen) return;
    if (conv.error) { finish(gen, conv.error); return; }
    lastToml = conv.toml;
    $("#toml-text").value = lastToml;
    decideNow(lastToml);
    const stopWatching = watchProgress(gen);
    try {
      answer = await api("/api/run", { toml: lastToml, method: $("#method").value, client: CLIENT }, controller.signal);
    } finally { stopWatching(); }
  } catch (e) {
    if (e.name === "AbortError") return;
    answer = { error: { kind: "http", message: String(e) } };
  }
  if (gen !== runGen) return;
  if (answer.error) { finish(gen, answer.error); return; }
  clearErrors();
  kindChange = null;
  lastMethod = answer.method;
  renderResults(answer);
  markStale(false);
  status.className = ""; status.dataset.state = "done"; status.dataset.gen = gen;
  status.textContent = `${answer.method === "exact" ? "exact" : `Monte Carlo, ${answer.trials.toLocaleString()} trials per course`} · ${Math.round(performance.now() - t0)} ms`;
}

// While a run goes, how far its Monte Carlo is: the server counts the
// trials of each chunk done (GET /api/progress/CLIENT, the page's latest
// request). Exact answers come before the first poll.
function watchProgress(gen) {
  const status = $("#status");
  let busy = false;
  const timer = setInterval(async () => {
    if (busy || gen !== runGen) return;
    busy = true;
    let p = null;
    try { p = await api("/api/progress/" + encodeURIComponent(CLIENT)); } catch { p = null; }
    busy = false;
    if (!p || p.error || gen !== runGen || status.dataset.state !== "busy" || !(p.trials_planned > 0)) return;
    const f = Math.min(1, p.trials_done / p.trials_planned);
    status.dataset.progress = f.toFixed(4);
    status.replaceChildren(el("progress", { max: 1, value: f }),
      ` Monte Carlo: ${Math.floor(100 * f)}% of ${p.trials_planned.toLocaleString()} trials`);
  }, 250);
  return () => clearInterval(timer);
}

function finish(gen, error) {
  // A newer request of this page cancelled this one on the server.
  if (error.kind === "cancelled") return;
  // A unit's kind just changed: the keys the new kind refuses go, and the
  // form says which (once: a second error is shown as it is).
  if (kindChange && dropRefused(kindChange, error)) return;
  kindChange = null;
  clearErrors();
  showError(error);
  markStale(true);
  const status = $("#status");
  status.className = ""; status.dataset.state = "error"; status.dataset.gen = gen;
  status.textContent = "invalid input: see the message beside the control";
}

// ---------------------------------------------------------------- results

// The odds shown are of an earlier setup while the form's is invalid:
// greyed, and marked "not for this setup".
function markStale(stale) {
  const out = $("#results");
  const any = !!out.querySelector(".course");
  out.classList.toggle("stale", stale && any);
  out.dataset.stale = String(stale && any);
  $("#stale").hidden = !(stale && any);
}

function renderResults(a) {
  const note = $("#note");
  note.hidden = !a.note; note.textContent = a.note || "";
  const out = $("#results");
  out.replaceChildren();
  const targets = targetsView(a);
  if (targets) out.append(targets);
  if (a.sweep) out.append(sweepView(a.sweep, a));
  const byVariant = new Map();
  for (const c of a.scenario.courses) {
    if (!byVariant.has(c.variant)) byVariant.set(c.variant, []);
    byVariant.get(c.variant).push(c);
  }
  for (const [variant, courses] of byVariant) {
    const ex = a.explain && a.explain.variants.find((v) => v.variant === variant);
    const cards = el("div", { class: "courses" }, courses.map((c) => renderCourse2(c, a, ex)));
    // A sweep's variants fold below its summary.
    out.append(a.sweep
      ? el("details", { class: "variant", "data-variant": variant }, el("summary", { text: `variant ${variant}` }), cards)
      : el("div", { class: "variant", "data-variant": variant }, el("h2", { text: variant ? `variant ${variant}` : "" }), cards));
  }
  if (a.explain_note) out.append(el("p", { class: "muted", text: a.explain_note }));
}

// The scenario's `[[expect]]` targets: each checked one with its verdict,
// and each the scenario no longer fits (a course renamed away, an outcome
// the setup lacks) as a failed target, with why: it never blocks the odds.
function targetsView(a) {
  const checked = a.scenario.targets || [], stale = a.stale_targets || [];
  if (!checked.length && !stale.length) return null;
  const fails = checked.filter((t) => t.verdict === "fail").length + stale.length;
  const bounds = (t, fmt) => [t.at_least !== null && t.at_least !== undefined ? `≥ ${fmt(t.at_least)}` : "",
    t.at_most !== null && t.at_most !== undefined ? `≤ ${fmt(t.at_most)}` : ""].filter(Boolean).join(", ");
  const rows = [];
  for (const t of checked) {
    const key = a.scenario.courses.flatMap((c) => c.key_outcomes).find((k) => k.name === t.target);
    const fmt = t.kind === "outcome" || (key && key.kind === "probability") ? pct : num3;
    const v = t.exact !== null && t.exact !== undefined ? t.exact : t.value;
    rows.push(el("tr", { "data-entry": t.entry, "data-verdict": t.verdict },
      el("td", { text: `expect[${t.entry}]` }), el("td", { text: t.course + (t.variant ? ` (${t.variant})` : "") }),
      el("td", { text: `${t.target} ${bounds(t, fmt)}` }), el("td", { class: "num", text: fmt(v) }),
      el("td", { class: t.verdict, text: t.verdict === "fail" ? "failed" : t.verdict === "pass" ? "passed" : t.verdict })));
  }
  for (const t of stale) {
    rows.push(el("tr", { "data-entry": t.entry ?? "", "data-verdict": "stale" },
      el("td", { text: t.entry === null ? "expect" : `expect[${t.entry}]` }),
      el("td", { colspan: 3, text: `not checked: ${t.error.text}` }),
      el("td", { class: "stale", text: "failed" })));
  }
  return el("section", { class: "targets" },
    el("h2", { text: `Targets: ${fails ? `${fails} failed` : "all met"} of ${checked.length + stale.length}` }),
    el("table", {}, el("tr", {}, ["entry", "course", "target", "figure", "verdict"].map((h) => el("th", { text: h }))), rows));
}

const value = (x) => (x.exact !== null && x.exact !== undefined ? x.exact : x.value);

// A swept scenario's summary, as `pikeshot report` draws it on index.html:
// the sweep charts (the server's SVG of sweep--KEY.svg and the heatmaps)
// and the sweep table (sweep.csv's first key outcome, per variant and
// course: the exact value, else the value and its 95% interval).
function sweepView(sw, a) {
  const box = el("section", { class: "sweep" }, el("h2", { text: `Across the sweep (${sw.variants} variants)` }));
  for (const c of sw.charts) {
    box.append(el("figure", { "data-stem": c.stem },
      el("img", { alt: c.title, title: c.title, src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(c.svg) })));
  }
  const col = (name) => sw.header.indexOf(name);
  const first = sw.rows.length ? sw.rows[0][col("id")] : null;
  if (first !== null) {
    const key = a.scenario.courses.flatMap((c) => c.key_outcomes).find((k) => k.name === first);
    const fmt = key && key.kind !== "probability" ? num3 : pct;
    const courses = [], variants = [], cells = new Map(), picks = new Map();
    for (const r of sw.rows) {
      const v = r[col("variant")], c = r[col("course")];
      if (!picks.has(v)) { picks.set(v, r.slice(0, sw.keys.length)); variants.push(v); }
      if (!courses.includes(c)) courses.push(c);
      if (r[col("id")] === first) cells.set(v + "\u0000" + c, r);
    }
    const figure = (r) => {
      if (!r) return "–";
      const ex = r[col("exact")];
      if (ex !== "" && a.trials === 0) return fmt(Number(ex));
      const mc = `${fmt(Number(r[col("value")]))} [${fmt(Number(r[col("ci_low")]))}, ${fmt(Number(r[col("ci_high")]))}]`;
      return ex !== "" ? `${mc} (exact ${fmt(Number(ex))})` : mc;
    };
    box.append(el("p", { class: "muted", text: `${key ? key.label : first} by variant and course` }));
    box.append(el("div", { class: "wide" }, el("table", { class: "sweep" },
      el("tr", {}, sw.keys.map((k) => el("th", {}, el("code", { text: k }))), courses.map((c) => el("th", { class: "num", text: c }))),
      variants.map((v) => el("tr", { "data-variant": v }, picks.get(v).map((x) => el("td", { text: x })),
        courses.map((c) => el("td", { class: "num", text: figure(cells.get(v + "\u0000" + c)) })))))));
  }
  if (sw.note) box.append(el("p", { class: "muted", text: sw.note }));
  return box;
}

// Whether difference `d` of key outcome `k` is good or bad for the own
// side: by the key outcome's polarity (the server's more_is_better: more
// enemy broken is better, more own unit broken is worse; a key outcome
// with none, like expected turns, is not coloured), when it is settled:
// exactly, or with a 95% interval that excludes zero.
function judged(k, d, a) {
  const more = a.more_is_better ? a.more_is_better[k.name] : undefined;
  if (!d || more === undefined) return "";
  const sign = d.exact !== null && d.exact !== undefined ? Math.sign(Math.abs(d.exact) < 1e-12 ? 0 : d.exact)
    : d.ci_low > 0 ? 1 : d.ci_high < 0 ? -1 : 0;
  if (sign === 0) return "";
  return (sign > 0) === more ? " better" : " worse";
}

function renderCourse2(c, a, ex) {
  const exact = a.method === "exact";
  const box = el("div", { class: "course", "data-course": c.course });
  box.append(el("h3", { text: c.course }));
  box.append(el("div", { class: "side", text: c.own ? `${c.own} vs ${c.enemy || "–"}` : "" }));
  // Key outcomes, with the difference from the first course.
  const kt = el("table", { class: "keys" }, el("tr", {}, el("th", { text: "key outcome" }), el("th", { text: exact ? "exact" : "value [95%]" }), el("th", { text: "vs first" })));
  for (const k of c.key_outcomes) {
    const fmt = k.kind === "probability" ? pct : num3;
    const v = value(k);
    const main = exact ? fmt(v) : `${fmt(k.value)} [${fmt(k.ci_low)}, ${fmt(k.ci_high)}]` + (k.exact !== null ? ` (exact ${fmt(k.exact)})` : "");
    const d = k.difference;
    let diff = "";
    if (d) {
      const dv = d.exact !== null && d.exact !== undefined ? d.exact : d.value;
      diff = signed(dv, k.kind) + (exact || d.exact !== null ? "" : ` [${signed(d.ci_low, k.kind)}, ${signed(d.ci_high, k.kind)}]`);
    }
    kt.append(el("tr", {}, el("td", { text: k.label }),
      el("td", { class: "num", "data-key": k.name, "data-value": String(v), text: main }),
      el("td", { class: "num" + judged(k, d, a), "data-diff": k.name, text: diff })));
  }
  box.append(kt);
  box.append(chart(c, exact));
  box.append(atLeast(c, exact));
  const ce = ex && ex.courses.find((x) => x.name === c.course);
  if (ce) box.append(explainView(ce));
  return box;
}

// The outcome distribution as horizontal bars (inline SVG).
function chart(c, exact) {
  const rows = c.outcomes;
  const W = 340, lw = 170, bh = 16, H = rows.length * (bh + 3) + 4;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("width", "100%"); svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `outcome distribution of ${c.course}`);
  const max = Math.max(1e-9, ...rows.map((o) => (exact ? o.exact : o.probability) || 0));
  const mk = (tag, attrs, text) => { const e = document.createElementNS(svg.namespaceURI, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; svg.append(e); };
  rows.forEach((o, i) => {
    const p = exact ? o.exact : o.probability;
    const y = 2 + i * (bh + 3);
    mk("text", { x: lw - 4, y: y + 12, "text-anchor": "end" }, o.label.length > 27 ? o.label.slice(0, 26) + "…" : o.label);
    mk("rect", { x: lw, y, width: Math.max(0.5, ((W - lw - 50) * (p || 0)) / max), height: bh, fill: "#4a78b0" });
    mk("text", { x: lw + ((W - lw - 50) * (p || 0)) / max + 3, y: y + 12 }, pct(p));
  });
  return el("details", { open: true }, el("summary", { text: "outcome distribution" }), svg);
}

// P(X >= k) for each measure.
function atLeast(c, exact) {
  const t = el("table", { class: "atleast" }, el("tr", {}, el("th", { text: "measure" }), el("th", { text: "mean" }), el("th", { text: "P(X ≥ k)" })));
  for (const m of c.measures) {
    const cells = m.distribution.filter((d) => d.value >= 1)
      .map((d) => `≥${d.value} ${pct(exact ? d.exact_at_least : d.at_least)}`).join(", ");
    t.append(el("tr", {}, el("td", { text: m.measure }), el("td", { class: "num", text: num3(exact ? m.exact_mean : m.mean) }), el("td", { text: cells || "–" })));
  }
  return el("details", {}, el("summary", { text: "at least, per measure" }), t);
}

// A label with its rule number once: not again where the label names it.
const withRule = (label, rule) => (!rule || label.includes(rule) ? label : `${label} (${rule})`);

// The explain breakdown of a course: each step, each state it is rolled
// in, every modifier with its source, the limit and the results.
function explainView(ce) {
  const d = el("details", { class: "explain" }, el("summary", { text: "why: how each roll is made" }));
  for (const st of ce.steps) {
    const s = el("div", { class: "step" }, el("b", { text: withRule(st.title, st.rule) }), ` — rolled ${pct(st.p_reached)} of the time`);
    for (const cs of st.cases.slice(0, 20)) {
      const r = cs.roll;
      const mods = el("table", { class: "mods" }, r.modifiers.map((m) => el("tr", { class: m.applied ? "" : "na" },
        el("td", { text: withRule(m.label, m.rule) }), el("td", { text: (m.value > 0 ? "+" : "") + m.value }),
        el("td", { text: `${m.source.kind}: ${m.source.detail}${m.note ? " — " + m.note : ""}` }))));
      const lim = r.limit ? ` limited to ${r.limit.min}..${r.limit.max} (${r.limit.rule})${r.limit.lost ? `, losing ${r.limit.lost}` : ""}` : "";
      s.append(el("div", { class: "case" },
        cs.state.length ? el("div", { class: "muted", text: `when ${cs.state.join("; ")} (${pct(cs.p_reached)})` }) : null,
        el("div", { text: `${r.dice} on ${r.table}${r.column ? ", column " + r.column : ""}: modifiers ${r.raw_total >= 0 ? "+" : ""}${r.raw_total}${lim} → ${r.final_total >= 0 ? "+" : ""}${r.final_total}` }),
        r.modifiers.length ? mods : null,
        el("div", { class: "muted", text: cs.results.map((x) => `${x.label} ${pct(x.p)}`).join(" · ") })));
    }
    if (st.cases.length > 20) s.append(el("div", { class: "muted", text: `… ${st.cases.length - 20} more states: pikeshot explain prints them all` }));
    d.append(s);
  }
  return d;
}

// ---------------------------------------------------------------- load, upload, download, share

async function loadShipped(id) {
  const r = await fetch("/api/scenario/" + id);
  const text = await r.text();
  if (!r.ok) { showError(JSON.parse(text).error); return; }
  const parsed = await api("/api/parse", { toml: text });
  if (parsed.error) { showError(parsed.error); return; }
  doc = parsed.doc;
  origin = { id, doc: parseJson(JSON.stringify(doc)) };
  changed(true);
}

async function upload(file) {
  const text = await file.text();
  const parsed = await api("/api/parse", { toml: text });
  if (parsed.error) { clearErrors(); showError(parsed.error); return; }
  doc = parsed.doc; origin = null;
  changed(true);
}

function download() {
  const blob = new Blob([lastToml], { type: "application/toml" });
  const a = el("a", { href: URL.createObjectURL(blob), download: (doc.name ? doc.name.replace(/[^\w-]+/g, "-").toLowerCase().slice(0, 60) : "scenario") + ".toml" });
  document.body.append(a); a.click(); a.remove();
}

const quote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

// `--set` lines that turn the loaded shipped scenario into `doc`, or null
// when a change is not a value (a key removed, a list grown).
function setsFrom(a, b, path, out) {
  if (isTable(a) && isTable(b)) {
    for (const k of Object.keys(b)) {
      if (!(k in a)) { if (isTable(b[k])) return null; out.push(`${keyOf([...path, k])}=${tomlValue(b[k])}`); continue; }
      if (setsFrom(a[k], b[k], [...path, k], out) === null) return null;
    }
    // A key gone is no `--set`, except a swept key that a `--set` pinned
    // (which takes it out of the sweep).
    const pinned = (k) => out.some((x) => x.startsWith(k + "="));
    // The value the page holds at a swept key, pinned with `--set`.
    const pin = (k) => {
      const v = k.split(".").reduce((o, p) => (isTable(o) ? o[p] : undefined), doc);
      if (v === undefined || isTable(v)) return false;
      out.push(`${k}=${tomlValue(v)}`);
      return true;
    };
    for (const k of Object.keys(a)) if (!(k in b)) {
      if (path.length === 0 && k === "sweep" && isTable(a.sweep)) {
        for (const sk of Object.keys(a.sweep)) if (!pinned(sk) && !pin(sk)) return null;
        continue;
      }
      if (path.length === 1 && path[0] === "sweep" && (pinned(k) || pin(k))) continue;
      return null;
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && b.some(isTable)) {
    for (let i = 0; i < a.length; i++) if (setsFrom(a[i], b[i], [...path, i], out) === null) return null;
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    if (isTable(b)) return null;
    out.push(`${keyOf(path)}=${tomlValue(b)}`);
  }
  return out;
}
function tomlValue(v) {
  if (typeof v === "string") return /^[\w.-]+$/.test(v) && !/^(true|false|-?\d[\d_.]*)$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

function cliCommand() {
  // The method of the odds shown: exact, or Monte Carlo with the exact
  // column where it fits (the page's trials are fewer: the CLI's default
  // is the file's `trials`).
  const flags = lastMethod === "exact" ? ["--method", "exact"] : lastMethod === "monte-carlo" ? [] : ["--exact"];
  let line, note;
  const sets = origin ? setsFrom(origin.doc, doc, [], []) : null;
  if (origin && sets) {
    // Sweep keys first, as the page pinned them.
    line = ["pikeshot", "run", "scenarios/" + origin.id.replace(/^shipped\//, "").replace(/^dir\//, ""), ...flags, ...sets.flatMap((s) => ["--set", s])];
    note = origin.id.startsWith("shipped/")
      ? "Run it in a clone of pikeshot (the shipped scenarios are under scenarios/)."
      : "Run it from the folder `pikeshot serve` was given.";
  } else {
    line = ["pikeshot", "run", "scenario.toml", ...flags];
    note = "Save the scenario first (Download TOML) as scenario.toml: the change is more than values --set can give.";
  }
  return { line: line.map(quote).join(" "), note };
}

// ---------------------------------------------------------------- start

async function start() {
  META = await api("/api/systems");
  const list = await api("/api/scenarios");
  const groups = new Map();
  for (const s of list) { if (!groups.has(s.group)) groups.set(s.group, []); groups.get(s.group).push(s); }
  for (const [g, items] of groups) $("#load").append(el("optgroup", { label: g }, items.map((s) => el("option", { value: s.id, text: s.id.split("/").slice(-1)[0].replace(/\.toml$/, "") }))));
  $("#load").addEventListener("change", (e) => { if (e.target.value) loadShipped(e.target.value); e.target.value = ""; });
  for (const x of META.systems) $("#blank").append(el("option", { value: x.id, text: `${x.name} (${x.id})` }));
  $("#blank").addEventListener("change", (e) => {
    if (e.target.value) { doc = blankFight(e.target.value); origin = null; notice = null; changed(true); }
    e.target.value = "";
  });
  $("#upload").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); e.target.value = ""; });
  $("#download").addEventListener("click", download);
  $("#method").addEventListener("change", () => { saveUrl(); scheduleRun(); });
  $("#copy-cli").addEventListener("click", () => {
    const { line, note } = cliCommand();
    $("#cli-text").textContent = line; $("#cli-note").textContent = note; $("#cli").hidden = false;
    if (navigator.clipboard) navigator.clipboard.writeText(line).catch(() => {});
  });
  $("#copy-link").addEventListener("click", () => { saveUrl(); if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {}); });
  const m = location.hash.match(/^#s=(.+)$/);
  if (m) {
    try {
      const state = parseJson(unb64url(m[1]));
      doc = state.doc; $("#method").value = state.method || "auto";
      if (state.origin) {
        const r = await fetch("/api/scenario/" + state.origin);
        const parsed = r.ok ? await api("/api/parse", { toml: await r.text() }) : {};
        origin = parsed.doc ? { id: state.origin, doc: parsed.doc } : null;
      }
      changed(true);
      return;
    } catch (e) { $("#errors").textContent = "the link's state could not be read: " + e; $("#errors").hidden = false; }
  }
  await loadShipped("shipped/mpbs/charge-or-salvo.toml");
}

start();
