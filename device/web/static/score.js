// The live score page: re-rendered from each pushed state, never reloaded.
"use strict";
(() => {
  const B = window.Belote;
  const { el } = B;
  let last = null;
  let health = null;

  function scoreboard(s) {
    const box = document.getElementById("scoreboard");
    const T = B.T();
    const teams = ["NS", "EW"].map((team) => {
      const pts = s.score[team];
      const pct = Math.min(100, Math.round((100 * pts) / Math.max(1, s.target)));
      return el("div", { class: `team team-${team}${s.winner === team ? " winner" : ""}` },
        el("div", { class: "team-name" }, B.teamLabel(s, team)),
        el("div", { class: "team-score", "data-team": team }, pts),
        el("div", { class: "bar" }, el("span", { style: `width:${pct}%` })));
    });
    const target = el("div", { class: "target" }, `${T.target} ${s.target}`,
      el("small", {}, s.rules.name));
    const banner = s.winner ? el("div", { class: "banner" }, `${T.winner}${B.COLON} ${B.teamLabel(s, s.winner)}`) : null;
    box.replaceChildren(teams[0], target, teams[1], banner || "");
  }

  function table(s) {
    const d = s.deal;
    const bySeat = {};
    for (const p of d ? d.trick : []) bySeat[p.seat] = p;
    for (const node of document.querySelectorAll(".seat")) {
      const seat = node.dataset.seat;
      const p = bySeat[seat];
      const T = B.T();
      const slot = p
        ? el("div", { class: `slot played${p.uncertain ? " uncertain" : ""}${p.read_as ? " corrected" : ""}` },
            B.cardImg(p.card),
            p.uncertain ? el("span", { class: "tag" }, "?") : null,
            p.read_as ? el("span", { class: "tag ok", title: `${T.corrected} (${B.cardName(p.read_as)})` }, "✎") : null)
        : el("div", { class: "slot empty" });
      const isTurn = d && d.turn === seat;
      const isDealer = d && d.dealer === seat;
      node.className = `seat seat-${seat}${isTurn ? " turn" : ""}`;
      node.replaceChildren(
        el("div", { class: "who" },
          el("span", { class: "name" }, B.seatLabel(s, seat)),
          el("span", { class: "seat-code" }, seat),
          isDealer ? el("span", { class: "badge dealer", title: T.dealer }, "D") : null,
          isTurn ? el("span", { class: "badge turn-badge" }, T.turn) : null),
        slot);
    }
    const T = B.T();
    const centre = document.getElementById("centre");
    if (!d) {
      centre.replaceChildren(el("div", { class: "muted big" }, T.no_game));
      return;
    }
    centre.replaceChildren(...[
      d.turned && !d.plays.length ? B.cardImg(d.turned, "card turned") : null,
      el("div", { class: "trick-no" }, `${T.trick} ${d.trick_number}/8`),
      el("div", { class: "centre-contract" }, B.contractNode(s, d.contract))].filter(Boolean));
  }

  function dealPanel(s) {
    const d = s.deal;
    const T = B.T();
    const box = document.getElementById("deal-panel");
    if (!d) { box.replaceChildren(el("h2", {}, T.deal)); return; }
    const rows = [
      el("h2", {}, `${T.deal} ${d.index}`),
      el("div", { class: "kv" }, el("span", {}, T.contract), B.contractNode(s, d.contract)),
      el("div", { class: "kv" }, el("span", {}, T.dealer), el("b", {}, B.seatLabel(s, d.dealer))),
      el("div", { class: "kv" }, el("span", {}, T.turn), el("b", { id: "turn" }, d.turn ? B.seatLabel(s, d.turn) : "—")),
      el("div", { class: "points" },
        ["NS", "EW"].map((t) => el("div", { class: "pts" },
          el("span", {}, B.teamLabel(s, t)),
          el("b", { "data-points": t }, d.points[t]),
          el("small", {}, `${d.tricks_won[t]} ${d.tricks_won[t] > 1 ? T.tricks : T.trick.toLowerCase()}`)))),
    ];
    const declared = B.declared(s, d.announces, d.belote);
    if (declared.length) {
      rows.splice(4, 0, el("div", { class: "kv" }, el("span", {}, T.announces), el("b", {}, declared.join(" · "))));
    }
    if (d.result) {
      rows.push(el("div", { class: `result result-${d.result}` }, B.resultWord(d.result),
        d.score ? ` · ${d.score.NS} – ${d.score.EW}` : ""));
    }
    if (d.penalty) {
      rows.push(el("div", { class: "result result-failed" },
        `${T.penalty} · ${d.penalty.score.NS} – ${d.penalty.score.EW}`));
    }
    if (d.error) rows.push(el("div", { class: "muted" }, d.error));
    box.replaceChildren(...rows);
  }

  function flags(s) {
    const T = B.T();
    const box = document.getElementById("flags");
    if (!s.flags.length) { box.replaceChildren(el("p", { class: "muted" }, T.no_flags)); return; }
    box.replaceChildren(...s.flags.slice().reverse().map((f) => el("div", { class: `flag ${f.decision}` },
      el("div", { class: "flag-head" },
        B.cardImg(f.card, "card mini"),
        el("div", {},
          el("b", {}, `${B.seatLabel(s, f.seat)} · ${B.cardName(f.card)}`),
          el("div", { class: "rule" }, T[`rule_${f.rule}`] || f.rule),
          el("div", { class: "why" }, B.explain(s, f)),
          T[`def_${f.rule}`] ? el("details", { class: "rule-def" }, el("summary", {}, T.the_rule),
            T[`def_${f.rule}`]) : null,
          el("div", { class: "muted" }, `${T.deal} ${f.deal} · ${T.trick} ${Math.floor(f.play / 4) + 1}`)),
        el("span", { class: `badge ${f.decision}` }, T[f.decision] || f.decision)),
      f.proof ? el("div", { class: "proof" }, `${T.proof}${B.LANG === "fr" ? " :" : ":"} ${B.seatLabel(s, f.proof.seat)} `,
        B.cardImg(f.proof.card, "card micro"), ` (${T.trick} ${Math.floor(f.proof.play / 4) + 1})`) : null,
      f.unless ? el("div", { class: "unless" }, `${T.unless.replace("{play}", B.playName(f.unless.play))} `,
        B.cardImg(f.unless.card, "card micro"), ` ${B.cardName(f.unless.card)}`) : null,
      f.evidence ? el("a", { href: f.evidence, target: "_blank" },
        el("img", { class: "evidence", src: f.evidence, alt: T.evidence,
          onerror: (e) => e.target.parentNode.remove() })) : null)));
  }

  function history(s) {
    const T = B.T();
    const box = document.getElementById("history");
    const rows = s.history.slice().reverse().map((h) => el("tr", {},
      el("td", {}, h.index),
      el("td", {}, B.contractNode(s, h.contract)),
      el("td", { class: `result-${h.result}` }, B.resultWord(h.result)),
      el("td", { class: "num" }, h.score ? h.score.NS : "—"),
      el("td", { class: "num" }, h.score ? h.score.EW : "—")));
    box.replaceChildren(el("table", { class: "history" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, T.contract), el("th", {}, ""),
        el("th", { class: "num" }, B.teamLabel(s, "NS")), el("th", { class: "num" }, B.teamLabel(s, "EW")))),
      el("tbody", {}, rows)));
  }

  function render(s) {
    last = s;
    scoreboard(s); table(s); dealPanel(s); flags(s); history(s);
    document.body.dataset.seq = s.seq;
  }

  function renderHealth(h) {
    health = h;
    document.getElementById("health").replaceChildren(B.healthNode(health));
  }

  B.loadWords().then(() => {
    B.connect(render, renderHealth);
    if (last) render(last);
  });
})();
