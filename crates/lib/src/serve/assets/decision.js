// pikeshot serve: the "best plan" panel. The form's `[[decision]]` tables
// (each option's steps drawn by the courses' own step editor, renderStep;
// the objective as a choice), and the decisions solved by the server
// through `pikeshot decide`'s own path (POST /api/decide) after each run:
// the best plan's value beside "always X" and the scenario's courses, the
// plan in words and its value, and every state where the own side chooses,
// folded. A classic script sharing the page's globals, loaded after
// form.js and before app.js.
"use strict";

let decideGen = 0;           // the latest solve asked for
let decideController = null; // aborts the solve in flight when a newer one starts

// The four aims an objective takes; an outcome aim names outcomes (a
// list), a measure aim one measure.
const AIMS = [
  ["most", "most likely (outcomes)"],
  ["least", "least likely (outcomes)"],
  ["most_expected", "largest expected (measure)"],
  ["least_expected", "smallest expected (measure)"],
];

// The form's decisions: one fieldset each, after the courses.
function renderDecisions(s, form) {
  const list = Array.isArray(doc.decision) ? doc.decision : [];
  if (!list.length) return;
  const box = el("fieldset", { id: "decisions" }, el("legend", { text: "Decisions (the best plan, turn by turn)" }));
  list.forEach((d, di) => { if (isTable(d)) box.append(renderDecision(s, d, di)); });
  form.append(box);
}

function renderDecision(s, d, di) {
  const base = ["decision", di];
  const units = unitNames();
  const box = el("fieldset", { "data-decision": di, "data-path": keyOf(base) }, el("legend", {}, `decision[${di}] `,
    el("button", { type: "button", class: "x", title: "remove decision", onclick: () => { doc.decision.splice(di, 1); if (!doc.decision.length) delete doc.decision; changed(true); } }, "×")));
  box.append(control([...base, "name"], d.name ?? "", null, { removable: false }));
  for (const k of ["own", "enemy"]) if (k in d) box.append(control([...base, k], d[k], null, { choices: units, removable: k !== "own" }));
  if (isTable(d.repeat)) {
    box.append(control([...base, "repeat", "turns"], d.repeat.turns ?? 1,
      { control: { kind: "int", min: 1, max: Math.max(1, s.max_turns) }, help: `the most turns: 1 to ${s.max_turns}` },
      { removable: false, label: "turns" }));
  }
  box.append(objectiveRow(d, base));
  for (const k of ["before", "after"]) {
    if (!Array.isArray(d[k])) continue;
    const part = el("fieldset", { "data-path": keyOf([...base, k]) }, el("legend", { text: `${k} (every turn)` }));
    d[k].forEach((st, si) => part.append(renderStep(s, st, [...base, k, si])));
    box.append(part);
  }
  const opts = Array.isArray(d.option) ? d.option : [];
  opts.forEach((o, oi) => {
    const ob = [...base, "option", oi];
    const part = el("fieldset", { "data-option": oi, "data-path": keyOf(ob) }, el("legend", {}, `option ${oi + 1} `,
      el("button", { type: "button", class: "x", title: "remove option", onclick: () => { opts.splice(oi, 1); changed(true); } }, "×")));
    part.append(control([...ob, "name"], o.name ?? "", null, { removable: false }));
    (Array.isArray(o.steps) ? o.steps : []).forEach((st, si) => part.append(renderStep(s, st, [...ob, "steps", si])));
    part.append(el("div", { class: "adders" }, el("button", { type: "button", onclick: () => {
      o.steps = Array.isArray(o.steps) ? o.steps : []; o.steps.push({ procedure: s.procedures[0].name }); changed(true);
    } }, "+ step")));
    box.append(part);
  });
  box.append(el("div", { class: "adders" }, opts.length < 6 ? el("button", { type: "button", onclick: () => {
    d.option = opts; opts.push({ name: `option ${opts.length + 1}`, steps: [{ procedure: s.procedures[0].name }] }); changed(true);
  } }, "+ option") : null));
  return box;
}

// The objective as a choice of aim and what it aims at (outcomes separated
// by commas, or one measure).
function objectiveRow(d, base) {
  const key = keyOf([...base, "objective"]);
  const o = isTable(d.objective) ? d.objective : {};
  const aim = AIMS.map(([a]) => a).find((a) => a in o) || "most";
  const what = Array.isArray(o[aim]) ? o[aim].join(", ") : (o[aim] ?? "");
  const write = (a, text) => {
    const names = text.split(",").map((x) => x.trim()).filter(Boolean);
    d.objective = { [a]: a.endsWith("_expected") ? (names[0] ?? "") : names };
  };
  const sel = el("select", { id: "f-" + key + "-aim", "data-path": key, onchange: (e) => { write(e.target.value, input.value); changed(false); } },
    AIMS.map(([a, words]) => el("option", { value: a, text: words })));
  sel.value = aim;
  const input = el("input", { type: "text", id: "f-" + key, size: 28, oninput: (e) => { write(sel.value, e.target.value); changed(false); } });
  input.value = what;
  return el("div", { class: "row", "data-row": key }, el("label", { for: sel.id, text: "objective" }),
    el("span", {}, sel, " ", input), el("span"),
    el("div", { class: "help", text: "what the best plan makes most or least likely (outcome ids, comma-separated) or largest or smallest on average (a measure)" }));
}

// ---------------------------------------------------------------- the panel

// After a run is asked for: the decisions of `toml` solved, and the panel
// drawn; hidden when the scenario has none.
async function decideNow(toml) {
  const panel = $("#best-plan");
  const gen = ++decideGen;
  if (decideController) decideController.abort();
  if (!Array.isArray(doc.decision) || !doc.decision.length) { panel.hidden = true; panel.replaceChildren(); return; }
  decideController = new AbortController();
  panel.hidden = false;
  panel.dataset.state = "busy";
  let a;
  try { a = await api("/api/decide", { toml }, decideController.signal); }
  catch (e) { if (e.name === "AbortError") return; a = { error: { kind: "http", message: String(e) } }; }
  if (gen !== decideGen) return;
  if (a.error) {
    panel.replaceChildren(el("h2", { text: "Best plan" }),
      el("p", { class: "err", text: (a.error.key ? `${a.error.key}: ` : "") + a.error.message }));
  } else {
    panel.replaceChildren(el("h2", { text: "Best plan" }),
      ...a.variants.flatMap((v) => v.decisions.map((d) => decisionView(v.variant, d))));
  }
  panel.dataset.state = a.error ? "error" : "done";
  panel.dataset.gen = gen;
}

// A value as the CLI shows it: a percentage for a probability, else an
// expectation to 3 decimals.
function decidedValue(d, v) { return d.probability ? `${(100 * v).toFixed(1)}%` : v.toFixed(3); }

// The states table shows at most this many rows, the likeliest first.
const STATE_ROWS = 200;

function decisionView(variant, d) {
  const gap = (v) => d.probability ? `${v >= 0 ? "+" : "−"}${Math.abs(100 * v).toFixed(1)} pts` : `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;
  const rows = [["the best plan", d.value, true],
    ...d.options.map((o, k) => [`always ${o}`, d.always[k], false]),
    ...d.courses.map((c) => [`the scenario's course "${c.name}"`, c.value, false])];
  const table = el("table", { class: "plans" }, el("thead", {}, el("tr", {}, el("th", { text: "plan" }), el("th", { class: "num", text: "exact" }), el("th", { class: "num", text: "against the best plan" }))),
    el("tbody", {}, rows.map(([label, v, best]) => el("tr", { class: best ? "best" : null, "data-plan": label },
      el("td", {}, best ? el("strong", { text: label }) : label),
      el("td", { class: "num", "data-value": v, text: decidedValue(d, v) }),
      el("td", { class: "num", text: best ? "" : gap(v - d.value) })))));
  // Under half the last digit shown (0.1 points, 0.001): nothing measurable.
  const under = d.probability ? 100 * d.rule_loss < 0.05 : d.rule_loss < 0.0005;
  const loss = under ? "losing nothing measurable" : `${gap(-d.rule_loss)} against the best plan`;
  const byReach = d.choices.map((c, i) => [c, i]).sort((x, y) => y[0].reach - x[0].reach || x[1] - y[1]).slice(0, STATE_ROWS);
  const states = el("details", { class: "states" },
    el("summary", { text: `Every state where the own side chooses (${d.choices.length}${d.choices.length > STATE_ROWS ? `; the ${STATE_ROWS} the best plan reaches most often` : ""})` }),
    el("div", { class: "wide" }, el("table", {},
      el("thead", {}, el("tr", {}, d.features.map((f) => el("th", { text: f })), el("th", { class: "num", text: "reach" }), el("th", { text: "best" }),
        d.options.map((o) => el("th", { class: "num", text: o })))),
      el("tbody", {}, byReach.map(([c]) => el("tr", {}, c.features.map((f) => el("td", { text: f })),
        el("td", { class: "num", text: `${(100 * c.reach).toFixed(2)}%` }), el("td", { text: c.best }),
        c.values.map((v) => el("td", { class: "num", text: decidedValue(d, v) }))))))));
  return el("div", { class: "decision", "data-decision": d.name },
    el("h3", { text: variant ? `${d.name} (${variant})` : d.name }),
    el("p", { class: "muted", text: `Objective: ${d.objective}. The own side picks an option at the start of each turn, knowing the state.` }),
    table,
    el("p", { class: "plan-words" }, el("strong", { text: "The plan in words: " }), d.rule, ` (${decidedValue(d, d.rule_value)}, ${loss}).`),
    el("p", { class: "muted", text: `${d.states.toLocaleString()} states; the best plan played on seeded dice: ${decidedValue(d, d.check.mean)} over ${d.check.trials.toLocaleString()} trials.` }),
    states);
}
