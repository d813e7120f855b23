// jitsim playground: the form, the panes, permalinks and the tour. Plain JavaScript, no
// external resources. Every answer comes from the server; the page only shows it.
"use strict";

const $ = (id) => document.getElementById(id);
let meta = null;
let tour = [];
let tourPage = null;

// splitLine splits a command line into arguments as a POSIX shell would for plain words,
// single quotes, double quotes and backslashes (no expansions).
function splitLine(s) {
  const out = [];
  let cur = "", inWord = false, q = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q === "'") { if (c === "'") q = ""; else cur += c; continue; }
    if (q === '"') {
      if (c === '"') q = "";
      else if (c === "\\" && i + 1 < s.length && '"\\$`'.includes(s[i + 1])) cur += s[++i];
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') { q = c; inWord = true; continue; }
    if (c === "\\" && i + 1 < s.length) { cur += s[++i]; inWord = true; continue; }
    if (/\s/.test(c)) { if (inWord) out.push(cur); cur = ""; inWord = false; continue; }
    cur += c; inWord = true;
  }
  if (q) throw new Error("unterminated " + q + " quote in the command line");
  if (inWord) out.push(cur);
  return out;
}

// joinLine quotes arguments that need it, so splitLine(joinLine(a)) equals a.
function joinLine(argv) {
  return argv.map((a) => (a !== "" && /^[A-Za-z0-9_@%+=:,.\/\-]+$/.test(a)) ? a : "'" + a.replace(/'/g, "'\\''") + "'").join(" ");
}

function fillSelect(sel, values, chosen) {
  sel.replaceChildren(...values.map((v) => { const o = document.createElement("option"); o.value = o.textContent = v; return o; }));
  sel.value = chosen;
}

function setStatus(text, error) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", !!error);
}

function sideCommand(side) {
  return { release: $("jdk-" + side).value, cpu: $("cpu-" + side).value, argv: splitLine($("cmd-" + side).value) };
}

function setSide(side, c) {
  $("jdk-" + side).value = c.release;
  $("cpu-" + side).value = c.cpu;
  $("cmd-" + side).value = joinLine(c.argv || []);
}

function setAB(on) {
  $("ab").checked = on;
  $("side-b").hidden = !on;
}

function requestFromForm() {
  const q = { version: meta.version, ...sideCommand("a") };
  if ($("ab").checked) q.compare = sideCommand("b");
  return q;
}

function fillForm(q) {
  setSide("a", q);
  setAB(!!q.compare);
  if (q.compare) setSide("b", q.compare);
}

// run sends a request (POST body, or a permalink's query string) and shows the answer.
async function run(q, permalink) {
  $("run").disabled = true;
  setStatus("running on the model clock…");
  try {
    const resp = permalink !== undefined
      ? await fetch("/api/run?" + permalink)
      : await fetch("/api/run", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(q) });
    const body = await resp.json();
    if (!resp.ok) {
      setStatus("refused (" + resp.status + "): " + body.error, true);
      return;
    }
    show(body);
    const bad = body.runs.find((r) => r.status !== 0);
    setStatus(bad ? "command line " + bad.label + " exited with status " + bad.status + " (see its stderr pane)" : "done", !!bad);
  } catch (e) {
    setStatus("failed: " + e.message, true);
  } finally {
    $("run").disabled = false;
  }
}

function show(res) {
  fillForm({ ...res.runs[0].command, compare: res.runs[1] && res.runs[1].command });
  const link = "?" + res.permalink + (tourPage ? "#tour/" + tourPage.id : "");
  history.replaceState(null, "", link);
  $("permalink").href = link;
  $("permalink").hidden = false;
  $("results").hidden = false;
  $("results").classList.toggle("ab", res.runs.length > 1);
  $("ratio").textContent = res.ratio ? "B / A: " + res.ratio.text + " — " + res.ratio.basis : "";
  if (tourPage) $("tour-jitsim").textContent = res.ratio ? res.ratio.text + " (" + res.ratio.basis + ")" : "no ratio: " + (res.curve_note || "see the panes");
  if (res.curve_svg) {
    $("curve").src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(res.curve_svg)));
    $("curve").hidden = false;
  } else {
    $("curve").removeAttribute("src");
    $("curve").hidden = true;
  }
  $("curve-note").textContent = res.curve_note || "Time per operation on the model clock; the lanes below show each followed method's tier over time.";
  const runs = $("runs");
  runs.classList.toggle("ab", res.runs.length > 1);
  runs.replaceChildren(...res.runs.map(runView));
}

function runView(r) {
  const v = $("run-template").content.firstElementChild.cloneNode(true);
  v.id = "run-" + r.label.toLowerCase();
  v.querySelector(".run-title").textContent = "Command line " + r.label + " — exit status " + r.status + (r.iterations ? ", " + r.iterations + " iterations" : "");
  v.querySelector(".line code").textContent = r.line;
  for (const k of ["stderr", "program", "compilation", "inlining"]) v.querySelector("pre." + k).textContent = r[k];
  v.querySelector(".stdout pre").textContent = r.stdout;
  const ex = v.querySelector(".explain");
  if (!r.explain || r.explain.length === 0) ex.textContent = "(no trees: " + (r.explain_note || "see the option errors") + ")";
  for (const e of r.explain || []) {
    const d = document.createElement("details");
    const s = document.createElement("summary");
    s.textContent = e.intrinsic + " — " + decider(e.doc);
    const pre = document.createElement("pre");
    pre.className = "pane tree";
    pre.tabIndex = 0;
    pre.textContent = e.tree;
    d.append(s, pre);
    ex.append(d);
  }
  return v;
}

// decider says in a few words where level 4's call goes and what decided it.
function decider(doc) {
  const l4 = (doc.levels || [])[4];
  if (!l4) return "";
  if (l4.call === "stub") return "C2 calls stub " + l4.variant + " (needs " + l4.needs + ")";
  return "C2 calls Java" + (l4.flag ? " (flag " + l4.flag + ")" : "");
}

function showTour() {
  const m = location.hash.match(/^#tour\/(.+)$/);
  tourPage = m ? tour.find((p) => p.id === decodeURIComponent(m[1])) || null : null;
  for (const a of document.querySelectorAll("#tour-nav a")) {
    if (tourPage && a.dataset.id === tourPage.id) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  $("tour").hidden = !tourPage;
  if (!tourPage) return false;
  const p = tourPage.published;
  $("tour-title").textContent = tourPage.title;
  $("tour-what").textContent = tourPage.what;
  $("tour-published").textContent = p.ratio.toFixed(2) + "× — A " + p.A + ", B " + p.B + " " + p.unit;
  $("tour-source").textContent = tourPage.source + "; here: " + p.note + ".";
  $("tour-jitsim").textContent = "running…";
  return true;
}

async function init() {
  meta = await (await fetch("/api/meta")).json();
  tour = await (await fetch("/api/tour")).json();
  $("version").textContent = "jitsim " + meta.version + ".";
  for (const s of ["a", "b"]) {
    fillSelect($("jdk-" + s), meta.releases, "17");
    fillSelect($("cpu-" + s), meta.cpus, "icelake-server");
  }
  $("tour-nav").replaceChildren(...tour.map((p) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "?" + p.permalink + "#tour/" + p.id;
    a.dataset.id = p.id;
    a.textContent = p.id === "poc" ? "interpreter/C1 proof of concept" : "JDK-" + p.id;
    a.title = p.title;
    li.append(a);
    return li;
  }));
  $("ab").addEventListener("change", () => setAB($("ab").checked));
  $("form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    tourPage = null;
    $("tour").hidden = true;
    let q;
    try { q = requestFromForm(); } catch (e) { setStatus(e.message, true); return; }
    run(q);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); $("form").requestSubmit(); }
  });
  window.addEventListener("hashchange", () => { if (showTour()) run(null, tourPage.permalink); });
  const inTour = showTour();
  if (location.search.length > 1) run(null, location.search.slice(1));
  else if (inTour) run(null, tourPage.permalink);
}

init().catch((e) => setStatus("the playground did not start: " + e.message, true));
