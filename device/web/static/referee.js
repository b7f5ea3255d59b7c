// The referee console: every button is one POST to /api/referee/*, with the PIN in a header.
"use strict";
(() => {
  const B = window.Belote;
  const { el } = B;
  let state = null;
  let pin = sessionStorage.getItem("referee-pin") || "";

  function say(text, ok = false) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.className = `message ${ok ? "ok" : "error"}`;
  }

  async function api(method, path, body) {
    const opts = { method, headers: { "X-Referee-Pin": pin } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(`/api/referee/${path}`, opts);
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      say(`${r.status} — ${data.detail || r.statusText}`);
      if (r.status === 401 || r.status === 403) setLocked(true);
      throw new Error(data.detail || r.statusText);
    }
    return data;
  }

  async function act(path, body, okText) {
    try {
      const done = await api("POST", path, body);
      say(okText || `✓ ${B.T()[`ev_${done.type}`] || done.type} #${done.seq}`, true);
      refreshAudit();
      return done;
    } catch (e) { return null; }
  }

  function setLocked(locked) {
    document.body.classList.toggle("locked", locked);
    const status = document.getElementById("pin-status");
    status.textContent = locked ? "✗" : "✓";
    status.classList.toggle("open", !locked);
  }

  async function checkPin() {
    try { await api("GET", "check"); setLocked(false); say("", true); refreshAudit(); }
    catch (e) { setLocked(true); }
  }

  function form(id, handler) {
    document.getElementById(id).addEventListener("submit", (ev) => {
      ev.preventDefault();
      handler(Object.fromEntries(new FormData(ev.target).entries()));
    });
  }

  form("pin-form", () => {
    pin = document.getElementById("pin").value.trim();
    sessionStorage.setItem("referee-pin", pin);
    checkPin();
  });

  form("game-form", (f) => {
    let rules = f.preset;
    if (f.overrides.trim()) {
      try { rules = { preset: f.preset, ...JSON.parse(f.overrides) }; }
      catch (e) { say(`Overrides: ${e.message}`); return; }
    }
    const players = {}, teams = {};
    for (const s of ["N", "E", "S", "W"]) if (f[s].trim()) players[s] = f[s].trim();
    for (const t of ["NS", "EW"]) if (f[t].trim()) teams[t] = f[t].trim();
    act("game", { rules, players, teams, dealer: f.dealer });
  });
  form("deal-form", (f) => act("deal", { dealer: f.dealer }));
  document.getElementById("deal-over").addEventListener("click", () => act("deal_over", {}));
  form("contract-form", (f) => {
    const bid = /^\d+$/.test(f.bid.trim()) ? Number(f.bid.trim()) : f.bid.trim();
    act("contract", { taker: f.taker, bid, trump: f.trump, coinche: Number(f.coinche) });
  });
  form("auction-form", (f) => act("auction", {
    calls: f.calls.split(/[,;]/).map((c) => c.trim()).filter(Boolean) }));
  form("announce-form", (f) => act("announce", { seat: f.seat, cards: f.cards.trim().split(/[\s,]+/) }));
  document.getElementById("belote-btn").addEventListener("click", () => {
    const seat = document.querySelector("#announce-form [name=seat]").value;
    act("belote", { seat });
  });
  form("play-form", (f) => act("play", { seat: f.seat, card: f.card.trim().toUpperCase() }));
  document.getElementById("undo").addEventListener("click", () => act("undo", {}));

  async function choose(play) {
    const box = document.getElementById("possible");
    try {
      const data = await api("GET", `possible?play=${play}`);
      const T = B.T();
      box.replaceChildren(
        el("p", {}, `${T.correct_card}${B.COLON} ${B.playName(play)} (${B.seatLabel(state, data.seat)})${B.COLON} `,
          B.cardImg(data.card, "card micro"), " →"),
        el("div", { class: "choices" }, data.possible.map((c) =>
          el("button", { class: "choice", "data-card": c, title: B.cardName(c),
                         onclick: () => act("correction", { play, card: c }).then(() => box.replaceChildren()) },
            B.cardImg(c, "card mini")))));
    } catch (e) { /* message already shown */ }
  }

  function renderPlays(s) {
    const d = s.deal;
    const box = document.getElementById("plays");
    if (!d || !d.plays.length) { box.replaceChildren(el("p", { class: "muted" }, "—")); return; }
    box.replaceChildren(...d.plays.map((p) => el("button", {
      class: `play${p.uncertain ? " uncertain" : ""}${p.read_as ? " corrected" : ""}`,
      "data-play": p.play, title: `${B.playName(p.play)} · ${B.seatLabel(s, p.seat)}`,
      onclick: () => choose(p.play) },
      el("span", { class: "play-no" }, `${Math.floor(p.play / 4) + 1}·${(p.play % 4) + 1} ${p.seat}`),
      B.cardImg(p.card, "card mini"))));
  }

  function renderFlags(s) {
    const T = B.T();
    const box = document.getElementById("flags");
    const flags = (s.deal && s.deal.violations) || [];
    if (!flags.length) { box.replaceChildren(el("p", { class: "muted" }, T.no_flags)); return; }
    box.replaceChildren(...flags.map((f) => el("div", { class: `flag ${f.decision}` },
      el("div", { class: "flag-head" }, B.cardImg(f.card, "card mini"),
        el("div", {}, el("b", {}, `${B.playName(f.play)} · ${B.seatLabel(s, f.seat)} · ${B.cardName(f.card)}`),
          el("div", { class: "rule" }, T[`rule_${f.rule}`] || f.rule),
          el("div", { class: "why" }, B.explain(s, f)),
          f.unless ? el("div", { class: "unless" }, `${T.unless.replace("{play}", B.playName(f.unless.play))} ${B.cardName(f.unless.card)}`) : null),
        el("span", { class: `badge ${f.decision}` }, T[f.decision])),
      el("div", { class: "row-form" },
        el("button", { onclick: () => act("ruling", { play: f.play, rule: f.rule, decision: "accepted" }) }, T.accept),
        el("button", { onclick: () => act("ruling", { play: f.play, rule: f.rule, decision: "dismissed" }) }, T.dismiss)))));
  }

  // The journal in words: what each change of the referee did, before and after.
  function playLabel(play, seat) {
    return `${B.playName(play)}${seat ? ` (${B.seatLabel(state || {}, seat)})` : ""}`;
  }

  function rulesLabel(rules) {
    if (typeof rules === "string") return rules;
    const { preset, ...knobs } = rules || {};
    const extra = Object.entries(knobs).map(([k, v]) => `${k} ${JSON.stringify(v)}`);
    return [preset || "?", ...extra].join(" · ");
  }

  function describe(type, v, played) {  // played: the seat of the play it changes
    const T = B.T();
    if (v === null || v === undefined) return "—";
    if (v === "cancelled") return el("b", {}, T.cancelled);
    const shown = state || {};  // the journal may arrive before the first state
    const seat = (s) => B.seatLabel(shown, s);
    switch (type) {
      case "game_started":
        return [rulesLabel(v.rules), ...["N", "E", "S", "W"].filter((s) => (v.players || {})[s])
          .map((s) => `${T[`seat_${s}`]} ${v.players[s]}`)].join(" · ");
      case "deal_started": return `${T.dealer}${B.COLON} ${seat(v.dealer)}`;
      case "contract": return B.contractNode(shown, v);
      case "announce": return `${seat(v.seat)}${B.COLON} ${(v.cards || []).map(B.cardName).join(" ")}`;
      case "belote": return `${seat(v.seat)}${B.COLON} ${T.belote}`;
      case "card_played": return `${seat(v.seat)}${B.COLON} ${B.cardName(v.card)}`;
      case "correction": return `${playLabel(v.play, played)}${B.COLON} ${v.card ? B.cardName(v.card) : "?"}`;
      case "ruling": return `${playLabel(v.play, played)}${v.rule ? ` · ${T[`rule_${v.rule}`] || v.rule}` : ""}`
        + `${B.COLON} ${T[v.decision] || v.decision}`;
      case "deal_over": return T.deal_over;
      case "undo": return v.type ? [`#${v.seq} ${T[`ev_${v.type}`] || v.type}${B.COLON} `, describe(v.type, v.data)] : "—";
      default: return JSON.stringify(v);
    }
  }

  async function refreshAudit() {
    if (document.body.classList.contains("locked")) return;
    try {
      const rows = await api("GET", "audit?limit=50");
      const T = B.T();
      const time = (t) => new Date(t * 1000).toLocaleTimeString(B.LANG);
      const cell = (r, v) => el("td", { title: JSON.stringify(v) }, describe(r.type, v, r.seat));
      const what = (r) => `${T[`ev_${r.type}`] || r.type}${r.deal ? ` · ${T.deal} ${r.deal}` : ""}`;
      document.getElementById("audit").replaceChildren(el("table", { class: "history audit" },
        el("thead", {}, el("tr", {}, ["#", T.time, "", T.before, T.after].map((h) => el("th", {}, h)))),
        el("tbody", {}, rows.map((r) => el("tr", { class: r.undone ? "undone" : "", "data-type": r.type },
          el("td", {}, r.seq), el("td", {}, time(r.time)), el("td", {}, what(r)),
          cell(r, r.before), cell(r, r.after))))));
    } catch (e) { /* shown */ }
  }

  function mini(s) {
    const d = s.deal;
    const box = document.getElementById("mini");
    box.replaceChildren(...[
      el("span", { class: "mini-score" }, `${B.teamLabel(s, "NS")} ${s.score.NS} – ${s.score.EW} ${B.teamLabel(s, "EW")}`),
      d ? el("span", {}, ` · ${B.T().deal} ${d.index} · `, B.contractNode(s, d.contract)) : null,
      d ? el("span", { class: "mini-trick" }, d.trick.map((p) => B.cardImg(p.card, "card micro"))) : null,
    ].filter(Boolean));
  }

  function render(s) {
    state = s;
    document.body.dataset.seq = s.seq;
    mini(s); renderPlays(s); renderFlags(s);
    refreshAudit();
  }

  B.loadWords().then(() => {
    document.getElementById("pin").value = pin;
    setLocked(true);
    if (pin) checkPin();
    B.connect(render);
  });
})();
