// Shared by the three pages: language, the live stream, and small renderers.
"use strict";

const params = new URLSearchParams(location.search);
const LANG = params.get("lang") === "en" ? "en" : "fr";
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const COLON = LANG === "fr" ? " :" : ":";  // French sets a space before a colon, English none
let T = {};

async function loadWords() {
  const r = await fetch(`/api/i18n?lang=${LANG}`);
  T = await r.json();
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-t]").forEach((el) => {
    el.textContent = T[el.dataset.t] || el.dataset.t;
  });
  // Links between the pages keep the language.
  if (LANG === "en") document.querySelectorAll("a.sheet-link").forEach((a) => { a.search = "?lang=en"; });
  return T;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function cardName(card) {
  if (!card) return "";
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return (T[`rank_${rank}`] || rank) + SUITS[suit];
}

function cardImg(card, cls = "card") {
  // A card seen played but never read (null): a blank card the referee can correct.
  if (!card) return el("span", { class: `${cls} unread`, title: T.unread || "?" }, "?");
  return el("img", { class: cls, src: `/cards/${card}.svg?lang=${LANG}`, alt: cardName(card),
                     title: cardName(card), "data-card": card });
}

function suitSpan(trump) {
  if (trump === "SA" || trump === "TA") return el("span", { class: "mode" }, T[trump] || trump);
  return el("span", { class: RED.has(trump) ? "suit red" : "suit" }, SUITS[trump] || trump);
}

function seatLabel(state, seat) {
  const name = (state.players || {})[seat];
  return name ? `${name}` : T[`seat_${seat}`] || seat;
}

function teamLabel(state, team) {
  return (state.teams || {})[team] || team;
}

function contractNode(state, c) {
  if (!c) return el("span", { class: "muted" }, T.contract_awaited);
  const bid = c.bid === "capot" ? T.capot : c.bid === "generale" ? T.generale : c.bid;
  const level = c.coinche === 2 ? T.coinche : c.coinche === 4 ? T.surcoinche : null;
  return el("span", { class: "contract" },
    el("b", {}, seatLabel(state, c.taker)), " · ", el("b", {}, bid), " ", suitSpan(c.trump),
    level ? el("span", { class: "badge coinche" }, level) : null);
}

// A play by its trick and place in it, as players count (plays are numbered from 0 in a deal).
function playName(play) {
  return (T.play_no || "{t}.{n}").replace("{t}", Math.floor(play / 4) + 1).replace("{n}", (play % 4) + 1);
}

// A text with its {placeholders} filled from `values`.
function fill(text, values) {
  return Object.entries(values).reduce((out, [k, v]) => out.replaceAll(`{${k}}`, v), text);
}

// What was declared in a deal (annonces, then belote), each as "who: cards", for one line.
function declared(state, announces, belote) {
  const parts = (announces || []).map((a) => `${seatLabel(state, a.seat)} ${a.cards.map(cardName).join(" ")}`);
  for (const seat of belote || []) parts.push(`${seatLabel(state, seat)} ${T.belote}`);
  return parts;
}

// A flagged play in one sentence, with the later play that proves it (families argue less).
function explain(state, f) {
  const text = T[`why_${f.rule}`];
  if (!text) return "";
  const trick = (p) => fill(T.trick_no || "{t}", { t: Math.floor(p / 4) + 1 });
  let out = fill(text, { who: seatLabel(state, f.seat), card: cardName(f.card), trick: trick(f.play),
                         suit: f.led ? SUITS[f.led.slice(-1)] : T.suit_led || "?" });
  if (f.proof && f.proof.play !== f.play && T.why_proof) {
    out += fill(T.why_proof, { who: seatLabel(state, f.proof.seat), card: cardName(f.proof.card),
                               trick: trick(f.proof.play) });
  }
  return `${out}.`;
}

function resultWord(r) {
  return r ? (T[r] || r) : "";
}

// Live state: server-sent events, with the browser's automatic reconnect.
function connect(onState, onHealth, delay = 0) {
  const url = `/api/events/stream${delay > 0 ? `?delay=${delay}` : ""}`;
  const source = new EventSource(url);
  source.addEventListener("state", (e) => onState(JSON.parse(e.data)));
  if (onHealth) source.addEventListener("health", (e) => onHealth(JSON.parse(e.data)));
  source.onerror = () => document.body.classList.add("offline");
  source.onopen = () => document.body.classList.remove("offline");
  return source;
}

function healthNode(h) {
  if (!h) return el("span", { class: "muted" }, "—");
  const up = typeof h.camera === "string" ? h.camera !== "down"
    : (h.camera_up ?? h.up ?? (h.status ? h.status !== "down" : true));
  const bits = [el("span", { class: up ? "dot up" : "dot down" }),
                `${T.camera} ${up ? T.camera_up : T.camera_down}`];
  if (typeof h.fps === "number") bits.push(` · ${h.fps.toFixed(1)} fps`);
  if (typeof h.dropped === "number") bits.push(` · ${h.dropped} ⨯`);
  if (typeof h.deck_cards === "number") {  // the deck memory: cards of this deck it knows
    bits.push(` · ${(T.deck_learnt || "{n}").replace("{n}", h.deck_cards)}`);
  }
  if (h.evidence_failures) {  // plays are kept; their pictures are not (disk full?)
    bits.push(el("span", { class: "red" }, ` · ${(T.evidence_lost || "{n}").replace("{n}", h.evidence_failures)}`));
  }
  return el("span", {}, ...bits);
}

window.Belote = { LANG, params, loadWords, el, cardName, cardImg, suitSpan, seatLabel, teamLabel,
                  contractNode, playName, fill, declared, explain, resultWord, connect, healthNode, COLON,
                  T: () => T };
