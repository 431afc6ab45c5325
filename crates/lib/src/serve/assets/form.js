// pikeshot serve: the form. Builds a control for every key of `doc` from
// the registry (/api/systems), and places the server's errors beside the
// control of the key they name. A classic script sharing the page's globals
// with app.js (`doc`, `META`, `el`, `sys`, `saveUrl`, `scheduleRun`, ...):
// it is loaded first and only declares functions, which app.js calls once
// both are loaded.
"use strict";

// ---------------------------------------------------------------- the form

// After a change: the form drawn again where its shape changed, with
// `note` ({ path, text }: keys the change dropped, and why) beside the
// control at `path` until the next change.
function changed(structural, note) {
  notice = note || null;
  if (structural) renderForm();
  saveUrl();
  scheduleRun();
}

function setPath(obj, path, value) {
  const last = path[path.length - 1];
  let o = obj;
  for (const p of path.slice(0, -1)) o = o[p];
  if (value === undefined) { if (Array.isArray(o)) o.splice(last, 1); else delete o[last]; }
  else o[last] = value;
}

// The canonical key of a path, as the CLI's errors name it:
// `units.tercio.kind`, `course[1].steps[0].extra_drm`.
function keyOf(path) {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : (s ? "." : "") + p;
  return s;
}

// The names a control offers on the card in use (`by_edition` when they
// differ by card).
function namesOf(c) {
  if (c.by_edition && c.by_edition.length) {
    const ed = editionOf();
    const on = c.by_edition.find(([e]) => e === ed);
    return on ? on[1] : [...new Set(c.by_edition.flatMap(([, n]) => n))];
  }
  return c.values || [];
}

// The typed values a choice offers: the names, true and false where the
// key is also a switch, and the whole numbers of its range.
function options(c) {
  const out = [...namesOf(c)];
  if (c.or_bool) out.push(true, false);
  if (c.min !== null && c.min !== undefined && c.max - c.min <= 60) for (let i = c.min; i <= c.max; i++) out.push(i);
  return out;
}

// A choice of typed `values` (strings, booleans, numbers); `value` is kept
// among them when it is not one (so the server's error can name it).
function choice(value, values, set) {
  const list = values.some((v) => v === value) || value === undefined ? values : [value, ...values];
  // Each option's value is the choice as written (a name, `true`, `3`), so
  // the control reads as the scenario does; the typed value is looked up.
  const sel = el("select", { onchange: (e) => set(list.find((v) => shown(v) === e.target.value)) },
    list.map((v) => el("option", { value: shown(v), text: shown(v) })));
  sel.value = shown(list[Math.max(0, list.findIndex((v) => v === value))]);
  return sel;
}

// One control for `value` at `path`, built from the key's `control` (the
// registry's description of what the key accepts, /api/systems).
function control(path, value, meta, opts = {}) {
  const key = keyOf(path);
  const c = (meta && meta.control) || { kind: "text", values: [] };
  // `opts.after(v)` follows the change up (dropping what it outdates) and
  // may return a note of what it dropped.
  const set = (v) => { setPath(doc, path, v); const note = opts.after ? opts.after(v) : null; changed(opts.structural || !!note, note); };
  const units = unitNames();
  let input;
  if (opts.choices) {
    input = choice(value, opts.choices, set);
  } else if (c.kind === "bool" && (typeof value === "boolean" || value === undefined)) {
    input = el("input", { type: "checkbox", onchange: (e) => set(e.target.checked) });
    input.checked = !!value;
  } else if (c.kind === "enum" || (c.kind === "int" && c.or_bool)) {
    input = choice(value, options(c), set);
  } else if ((c.kind === "int" || c.kind === "decimal") && !isTable(value) && !Array.isArray(value)) {
    const int = c.kind === "int";
    input = el("input", { type: "number", step: int ? 1 : "any", min: c.min ?? undefined, max: c.max ?? undefined,
      oninput: (e) => { const t = e.target.value; set(t === "" ? t : int ? (/^-?\d+$/.test(t) ? parseInt(t, 10) : loose(t)) : decimal(t)); } });
    input.value = isRaw(value) ? value.rawJSON : value ?? "";
  } else if (c.kind === "unit" && typeof value === "string") {
    input = choice(value, units, set);
  } else if (c.kind === "units" && (typeof value === "string" || Array.isArray(value))) {
    // One unit or several (a list): a multiple choice of the scenario's units.
    const chosen = Array.isArray(value) ? value : [value];
    input = el("select", { multiple: true, size: Math.min(4, Math.max(2, units.length)), onchange: (e) => {
      const picked = [...e.target.selectedOptions].map((o) => o.value);
      set(picked.length === 1 ? picked[0] : picked);
    } }, [...new Set([...chosen, ...units])].map((u) => el("option", { value: u, text: u })));
    for (const o of input.options) o.selected = chosen.includes(o.value);
  } else if (typeof value === "number" && Number.isInteger(value)) {
    input = el("input", { type: "number", step: 1,
      oninput: (e) => { const t = e.target.value; set(t === "" ? t : (/^-?\d+$/.test(t) ? parseInt(t, 10) : loose(t))); } });
    input.value = value;
  } else {
    const suggestions = [...namesOf(c), ...(opts.suggest || [])];
    const listId = suggestions.length ? "dl-" + key.replace(/[^\w]/g, "_") : undefined;
    input = el("input", { type: "text", list: listId, oninput: (e) => set(loose(e.target.value)) });
    input.value = value === undefined ? "" : shown(value);
    if (listId) input = el("span", {}, input, el("datalist", { id: listId }, suggestions.map((v) => el("option", { value: v }))));
  }
  const field = input.matches("input,select") ? input : input.querySelector("input");
  field.dataset.path = key;
  field.id = "f-" + key;
  const remove = opts.removable === false ? el("span") :
    el("button", { type: "button", class: "x", title: "remove " + key, onclick: () => { setPath(doc, path, undefined); changed(true); } }, "×");
  return el("div", { class: "row", "data-row": key },
    el("label", { for: field.id, title: key, text: opts.label || String(path[path.length - 1]) }), input, remove,
    meta && meta.help ? el("div", { class: "help", text: meta.help }) : null);
}

function adder(label, names, add) {
  if (!names.length) return null;
  return el("select", { onchange: (e) => { if (e.target.value) add(e.target.value); } },
    el("option", { value: "", text: label }), names.map((n) => el("option", { value: n, text: n })));
}

// A first value for a key just added: its default where it has one, else
// the first its control offers.
function initial(meta) {
  const c = meta && meta.control;
  if (!c) return "";
  const typed = (d) => {
    if (c.kind === "bool" || c.or_bool) { if (d === "true") return true; if (d === "false") return false; }
    if (c.kind === "int" && /^-?\d+$/.test(d)) return parseInt(d, 10);
    if (c.kind === "decimal") return decimal(d);
    return d;
  };
  if (meta.default !== null && meta.default !== undefined) return typed(meta.default);
  if (c.kind === "bool") return true;
  if (c.kind === "int" && !c.or_bool) return Math.max(c.min ?? 0, Math.min(c.max ?? 0, 0));
  if (c.kind === "decimal") return decimal(String(Math.max(c.min ?? 0, Math.min(c.max ?? 0, 0))));
  if (c.kind === "enum" || c.kind === "int") return options(c)[0];
  if (c.kind === "unit" || c.kind === "units") return unitNames()[0] ?? "";
  return "";
}

function unitNames() { return isTable(doc.units) ? Object.keys(doc.units) : []; }

function editionOf() { return typeof doc.edition === "string" ? doc.edition : (sys() && sys().default_edition); }

function renderForm() {
  const s = sys();
  const form = $("#form");
  form.replaceChildren();
  // The scenario.
  const top = el("fieldset", {}, el("legend", { text: "Scenario" }));
  top.append(control(["name"], doc.name ?? "", null, { removable: false }));
  top.append(control(["system"], doc.system, null, { choices: META.systems.map((x) => x.id), structural: true, removable: false,
    after: (id) => switchSystem(s, id) }));
  if (s && s.editions.length) {
    const swept = isTable(doc.sweep) && Array.isArray(doc.sweep.edition);
    const choices = s.editions.map((e) => e[0]);
    const both = "every card (sweep)";
    const sel = el("select", { "data-path": "edition", id: "f-edition", onchange: (e) => {
      if (e.target.value === both) {
        doc.sweep = isTable(doc.sweep) ? doc.sweep : {};
        doc.sweep.edition = choices.slice().reverse();
      } else {
        doc.edition = e.target.value;
        if (isTable(doc.sweep)) { delete doc.sweep.edition; if (!Object.keys(doc.sweep).length) delete doc.sweep; }
      }
      changed(true);
    } }, [...choices, both].map((v) => el("option", { value: v, text: v === both ? v : `${v}: ${s.editions.find((e) => e[0] === v)[1]}` })));
    sel.value = swept ? both : editionOf();
    top.append(el("div", { class: "row", "data-row": "edition" }, el("label", { for: "f-edition", text: "edition (card)" }), sel, el("span")));
  }
  for (const k of ["seed", "trials", "description"]) if (k in doc) top.append(control([k], doc[k], null));
  top.append(el("div", { class: "adders" }, adder("+ key…", ["seed", "trials", "description"].filter((k) => !(k in doc)),
    (k) => { doc[k] = k === "description" ? "" : 1; changed(true); })));
  form.append(top);
  if (!s) { form.append(el("p", { class: "err", text: `unknown system "${doc.system}"` })); return; }

  // [rules]
  const rules = el("fieldset", {}, el("legend", { text: "[rules] readings" }));
  if (isTable(doc.rules)) for (const [k, v] of Object.entries(doc.rules)) rules.append(control(["rules", k], v, s.rules_keys.find((r) => r.key === k)));
  rules.append(el("div", { class: "adders" }, adder("+ reading…", s.rules_keys.map((r) => r.key).filter((k) => !(isTable(doc.rules) && k in doc.rules)),
    (k) => { doc.rules = isTable(doc.rules) ? doc.rules : {}; doc.rules[k] = initial(s.rules_keys.find((r) => r.key === k)); changed(true); })));
  if (s.rules_keys.length || isTable(doc.rules)) form.append(rules);

  // Units.
  const units = el("fieldset", {}, el("legend", { text: "Units" }));
  for (const name of unitNames()) {
    const u = doc.units[name];
    const box = el("fieldset", { "data-unit": name, "data-path": keyOf(["units", name]) }, el("legend", {}, `[units.${name}] `,
      el("button", { type: "button", class: "x", title: "remove unit " + name, onclick: () => { delete doc.units[name]; changed(true); } }, "×")));
    for (const [k, v] of Object.entries(u)) box.append(control(["units", name, k], v, s.unit_keys.find((x) => x.key === k),
      k === "kind" ? { after: (kind) => { kindChange = { unit: name, kind, dropped: [] }; return null; } } : {}));
    box.append(el("div", { class: "adders" }, adder("+ unit key…", s.unit_keys.map((x) => x.key).filter((k) => !(k in u)), (k) => {
      u[k] = initial(s.unit_keys.find((x) => x.key === k)); changed(true);
    })));
    units.append(box);
  }
  const newName = el("input", { type: "text", placeholder: "new unit name", size: 14 });
  units.append(el("div", { class: "adders" }, newName, el("button", { type: "button", onclick: () => {
    const n = newName.value.trim(); if (!n) return;
    doc.units = isTable(doc.units) ? doc.units : {};
    // The unit's required keys (the registry's help says "required"), each
    // at its first value.
    const first = s.unit_keys.filter((x, i) => i === 0 || /^required/.test(x.help));
    doc.units[n] = Object.fromEntries(first.map((x) => [x.key, initial(x)]));
    changed(true);
  } }, "+ unit")));
  form.append(units);

  // Courses.
  const courses = el("fieldset", {}, el("legend", { text: "Courses of action" }));
  const list = Array.isArray(doc.course) ? doc.course : [];
  list.forEach((c, ci) => courses.append(renderCourse(s, c, ci)));
  courses.append(el("div", { class: "adders" }, el("button", { type: "button", onclick: () => {
    doc.course = list;
    const p = s.procedures[0];
    list.push({ name: `course ${list.length + 1}`, steps: [{ procedure: p.name }] });
    changed(true);
  } }, "+ course")));
  form.append(courses);
  renderDecisions(s, form);

  // Anything else (sweep, expect, ...), as JSON.
  const known = new Set(["name", "system", "edition", "seed", "trials", "description", "rules", "units", "course", "decision"]);
  const rest = Object.keys(doc).filter((k) => !known.has(k));
  if (rest.length) {
    const other = el("fieldset", {}, el("legend", { text: "Other tables (as JSON)" }));
    for (const k of rest) {
      const ta = el("textarea", { rows: 3, "data-path": k, id: "f-" + k, oninput: (e) => {
        try { doc[k] = parseJson(e.target.value); e.target.classList.remove("invalid"); changed(false); }
        catch (err) { e.target.classList.add("invalid"); }
      } });
      ta.value = JSON.stringify(doc[k]);
      other.append(el("div", { class: "row", "data-row": k }, el("label", { for: "f-" + k, text: k }), ta,
        el("button", { type: "button", class: "x", onclick: () => { delete doc[k]; changed(true); } }, "×")));
    }
    form.append(other);
  }
  if (notice) {
    const at = document.querySelector(`[data-path="${CSS.escape(notice.path)}"]`);
    const row = at && (at.closest("[data-row]") || at);
    (row || form).append(el("div", { class: "dropped", "data-for": notice.path, text: notice.text }));
  }
}

// ---------------------------------------------------------------- blank fights, switching system

// A blank fight of system `id`: two units and one course of one step,
// each with its required keys at their first values. It becomes `doc`.
function blankFight(id) {
  const s = META.systems.find((x) => x.id === id);
  // Required of every unit or step ("required: ..."), not of some only
  // ("required for artillery, refused for others").
  const required = (keys) => keys.filter((x) => /^required:/.test(x.help));
  doc = { name: `A blank ${s.name} fight`, system: id, units: {} };
  const edition = s.default_edition || (s.editions.length ? s.editions[0][0] : null);
  if (edition) doc.edition = edition;
  const unit = () => Object.fromEntries(required(s.unit_keys).map((x) => [x.key, initial(x)]));
  doc.units.ours = unit();
  doc.units.theirs = unit();
  // A fight any two units can have: close combat where the system has it.
  const p = s.procedures.find((x) => /melee|close|combat/.test(x.name)) || s.procedures[0];
  const step = { procedure: p.name };
  // The step's units in turn: the first it names is ours, the next theirs.
  let nth = 0;
  // A unit key is taken as required unless its help says optional.
  const needed = p.keys.filter((k) => /^required:/.test(k.help)
    || (k.control && k.control.kind === "unit" && !/optional|default/i.test(k.help || "")));
  for (const k of needed) {
    const unitKey = k.control && (k.control.kind === "unit" || k.control.kind === "units");
    step[k.key] = unitKey ? ["ours", "theirs"][nth++ % 2] : initial(k);
  }
  doc.course = [{ name: "course 1", own: "ours", enemy: "theirs", steps: [step] }];
  return doc;
}

// Switching the system from `old` to `id`: the other system's units,
// courses and readings mean nothing to the new one, so the form starts
// from the new system's blank fight, keeping the scenario's name, and
// says what it dropped.
function switchSystem(old, id) {
  if (!old || old.id === id) return null;
  const name = doc.name;
  const units = isTable(doc.units) ? Object.keys(doc.units) : [];
  const courses = Array.isArray(doc.course) ? doc.course.length : 0;
  blankFight(id);
  if (name) doc.name = name;
  const what = [units.length ? `units ${units.join(", ")}` : "", courses ? `${courses} course${courses > 1 ? "s" : ""}` : ""].filter(Boolean).join(" and ");
  return { path: "system", text: `dropped ${what || "the setup"}: they were ${old.name}'s; here is a blank ${id} fight` };
}

// After a unit's kind changed, the run's errors about that unit's other
// keys (the keys the new kind refuses) drop those keys, and the form says
// which. True when it dropped some (the run starts again; each round
// drops at least one key, so this ends).
function dropRefused(kc, error) {
  const u = isTable(doc.units) ? doc.units[kc.unit] : null;
  const prefix = keyOf(["units", kc.unit]) + ".";
  const errs = error.errors || [];
  const keys = errs.map((e) => (e.key || "").startsWith(prefix) ? e.key.slice(prefix.length).split(/[.[]/)[0] : null);
  if (!u || !errs.length || keys.some((k) => k === null || k === "kind" || !(k in u))) return false;
  for (const k of keys) { delete u[k]; if (!kc.dropped.includes(k)) kc.dropped.push(k); }
  changed(true, { path: prefix + "kind", text: `dropped ${kc.dropped.join(", ")}: a ${kc.kind} does not take ${kc.dropped.length > 1 ? "them" : "it"}` });
  return true;
}

function renderCourse(s, c, ci) {
  const base = ["course", ci];
  const box = el("fieldset", { "data-course": ci, "data-path": keyOf(base) }, el("legend", {}, `course[${ci}] `,
    el("button", { type: "button", class: "x", title: "remove course", onclick: () => { doc.course.splice(ci, 1); changed(true); } }, "×")));
  const units = unitNames();
  // Renaming a course renames it in the `[[expect]]` entries that name it.
  let was = c.name;
  box.append(control([...base, "name"], c.name ?? "", null, { removable: false, after: (now) => {
    if (Array.isArray(doc.expect)) for (const e of doc.expect) if (isTable(e) && e.course === was) e.course = now;
    const ta = document.querySelector('[data-path="expect"]');
    if (ta && Array.isArray(doc.expect)) ta.value = JSON.stringify(doc.expect);
    was = now;
    return null;
  } }));
  for (const k of ["own", "enemy"]) if (k in c) box.append(control([...base, k], c[k], null, { choices: units }));
  for (const ck of s.course_keys) if (ck.key in c) box.append(control([...base, ck.key], c[ck.key], ck));
  if (s.max_turns > 0 && isTable(c.repeat)) {
    const r = c.repeat;
    const rb = el("fieldset", {}, el("legend", {}, "repeat ",
      el("button", { type: "button", class: "x", onclick: () => { delete c.repeat; changed(true); } }, "×")));
    rb.append(control([...base, "repeat", "turns"], r.turns ?? 1, { control: { kind: "int", min: 1, max: s.max_turns }, help: `1 to ${s.max_turns} turns` }, { removable: false }));
    const until = Array.isArray(r.until) ? r.until : [];
    const boxes = el("div", { class: "row", "data-row": keyOf([...base, "repeat", "until"]) }, el("label", { text: "until" }),
      el("div", { "data-path": keyOf([...base, "repeat", "until"]) }, s.stop_conditions.map(([n, meaning]) => {
        const cb = el("input", { type: "checkbox", title: meaning, onchange: (e) => {
          const now = Array.isArray(r.until) ? r.until.filter((x) => x !== n) : [];
          if (e.target.checked) now.push(n);
          if (now.length) r.until = now; else delete r.until;
          changed(false);
        } });
        cb.checked = until.includes(n);
        return el("label", { title: meaning, style: "margin-right:8px;white-space:nowrap" }, cb, " " + n);
      })), el("span"), el("div", { class: "help", text: `default: ${s.default_until}` }));
    rb.append(boxes);
    if ("from_step" in r) rb.append(control([...base, "repeat", "from_step"], r.from_step, { control: { kind: "int", min: 0, max: 99 }, help: "0-based: the steps before it run once" }));
    else rb.append(el("div", { class: "adders" }, el("button", { type: "button", onclick: () => { r.from_step = 0; changed(true); } }, "+ from_step")));
    box.append(rb);
  }
  (Array.isArray(c.steps) ? c.steps : []).forEach((st, si) => box.append(renderStep(s, st, [...base, "steps", si])));
  const more = [];
  for (const k of ["own", "enemy"]) if (!(k in c)) more.push(k);
  for (const ck of s.course_keys) if (!(ck.key in c)) more.push(ck.key);
  if (s.max_turns > 0 && !("repeat" in c)) more.push("repeat");
  box.append(el("div", { class: "adders" },
    el("button", { type: "button", onclick: () => { c.steps = Array.isArray(c.steps) ? c.steps : []; c.steps.push({ procedure: s.procedures[0].name }); changed(true); } }, "+ step"),
    adder("+ course key…", more, (k) => {
      if (k === "repeat") c.repeat = { turns: Math.min(6, s.max_turns) };
      else if (k === "own" || k === "enemy") c[k] = units[k === "own" ? 0 : 1] ?? units[0] ?? "";
      else c[k] = initial(s.course_keys.find((x) => x.key === k));
      changed(true);
    })));
  return box;
}

function renderStep(s, st, path) {
  const box = el("fieldset", { "data-step": keyOf(path), "data-path": keyOf(path) });
  const p = s.procedures.find((x) => x.name === st.procedure);
  box.append(el("legend", {}, `step ${path[path.length - 1] + 1} `,
    el("button", { type: "button", class: "x", title: "remove step", onclick: () => { setPath(doc, path, undefined); changed(true); } }, "×")));
  box.append(control([...path, "procedure"], st.procedure ?? "", p ? { help: `${p.rule}: ${p.summary}` } : null,
    { choices: s.procedures.map((x) => x.name), structural: true, removable: false, after: (name) => {
      // The keys the new procedure does not take go, and the form says which.
      const np = s.procedures.find((x) => x.name === name);
      const gone = np ? Object.keys(st).filter((k) => k !== "procedure" && !np.keys.some((x) => x.key === k)) : [];
      for (const k of gone) delete st[k];
      return gone.length ? { path: keyOf([...path, "procedure"]), text: `dropped ${gone.join(", ")}: ${name} does not take ${gone.length > 1 ? "them" : "it"}` } : null;
    } }));
  for (const [k, v] of Object.entries(st)) {
    if (k === "procedure") continue;
    box.append(control([...path, k], v, p && p.keys.find((x) => x.key === k)));
  }
  if (p) box.append(el("div", { class: "adders" }, adder("+ key…", p.keys.map((x) => x.key).filter((k) => !(k in st)), (k) => {
    st[k] = initial(p.keys.find((x) => x.key === k));
    changed(true);
  })));
  return box;
}

// ---------------------------------------------------------------- errors beside their controls

function clearErrors() {
  document.querySelectorAll(".err[data-for]").forEach((e) => e.remove());
  document.querySelectorAll(".invalid").forEach((e) => e.classList.remove("invalid"));
  $("#errors").hidden = true;
}

// The form's key for an error's: a course named in quotes
// (`course."charge now".steps[0]`) is the course of that name in the form.
function formKey(key) {
  return key.replace(/^course\."((?:[^"\\]|\\.)*)"/, (all, name) => {
    const i = Array.isArray(doc.course) ? doc.course.findIndex((c) => c && c.name === name) : -1;
    return i >= 0 ? `course[${i}]` : all;
  });
}

// Puts `text` under the control of `key`, or of the nearest table above
// it that the form draws (a step, a course, a unit); false when none is.
function placeError(key, text) {
  let k = formKey(key);
  while (k) {
    const field = document.querySelector(`[data-path="${CSS.escape(k)}"]`);
    if (field) {
      field.classList.add("invalid");
      const row = field.matches("fieldset") ? field : field.closest("[data-row]") || field.parentElement;
      row.append(el("div", { class: "err", "data-for": key, text }));
      return true;
    }
    const cut = Math.max(k.lastIndexOf("."), k.lastIndexOf("["));
    k = cut > 0 ? k.slice(0, cut) : "";
  }
  return false;
}

// The server's error, each part under the control it is about, in words
// about the form (no file or line: the player never had the file); what
// no control is about goes above the form, naming its key.
function showError(err) {
  const parts = err.errors && err.errors.length ? err.errors
    : [{ key: err.key, text: err.kind === "input" && err.what ? err.what : err.message }];
  const left = [];
  for (const p of parts) {
    const keys = (p.key || "").split(", ").filter(Boolean);
    let placed = false;
    for (const key of keys) placed = placeError(key, p.text) || placed;
    if (!placed) left.push(keys.length ? `${keys.join(", ")}: ${p.text}` : p.text);
  }
  if (left.length) { $("#errors").textContent = left.join("\n"); $("#errors").hidden = false; }
}
