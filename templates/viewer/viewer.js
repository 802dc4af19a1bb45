/* The game viewer's script (copied into each viewer file; no library, nothing fetched).
   Reads the JSON in #viewer-data (referee/pbem/viewer_data.py) and draws the step shown:
   counters over the board, the step's events as marks, the text panels. Every text from the
   data goes in through textContent, never as HTML. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("viewer-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var B = D.board;
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (kids || []).forEach(function (c) {
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }
  function sv(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } }
  function pad2(n) { return (n < 10 ? "0" : "") + n; }
  if (B.grid) {  /* the hex ids, spelled as referee/hexgrid.py HexGrid.hex_id does */
    var G = B.grid, i = 0;
    for (var r = G.first_row; r < G.first_row + G.rows; r++) {
      for (var c = G.first_column; c < G.first_column + G.columns; c++) {
        var id = G.id_format === "RRCC" ? pad2(r) + pad2(c) : pad2(c) + pad2(r);
        B.places[id] = [G.centres[2 * i], G.centres[2 * i + 1]];
        B.kinds[id] = "hex";
        i++;
      }
    }
  }
  var sideColor = {}, sideName = {};
  D.sides.forEach(function (s) { sideColor[s.id] = s.color; sideName[s.id] = s.name; });

  /* placements per step, rebuilt from the changes each step records */
  var placements = [], cur = {};
  D.steps.forEach(function (st) {
    var next = Object.assign({}, cur);
    st.gone.forEach(function (u) { delete next[u]; });
    Object.keys(st.set).forEach(function (u) { next[u] = st.set[u]; });
    placements.push(next);
    cur = next;
  });
  var step = D.steps.length - 1, selected = -1, pinned = null;

  function values(info) {
    return Object.keys(info.values || {}).map(function (k) { return info.values[k]; }).join("-");
  }
  function stacksAt(n) {
    var by = {};
    Object.keys(placements[n]).forEach(function (u) {
      var p = placements[n][u];
      if (!p[0]) { return; }
      (by[p[0]] = by[p[0]] || []).push(u);
    });
    Object.keys(by).forEach(function (loc) {
      by[loc].sort(function (a, b) { return placements[n][a][3] - placements[n][b][3] || (a < b ? -1 : 1); });
    });
    return by;
  }

  /* ---- the map: counters and marks ---- */
  var size = Math.max(30, Math.round(B.hex_width * 0.6));
  function drawUnits() {
    var g = $("units"); clear(g);
    var by = stacksAt(step);
    Object.keys(by).sort().forEach(function (loc) {
      var at = B.places[loc];
      if (!at) { return; }
      var ids = by[loc];
      var sg = sv("g", { "class": "stack", "data-place": loc });
      for (var i = ids.length - 1; i >= 0; i--) {
        var u = ids[i], info = D.units[u] || { side: "", values: {} };
        var off = Math.min(i, 4) * 4;
        var x = at[0] - size / 2 + off, y = at[1] - size / 2 + off;
        var cg = sv("g", { "class": "counter", "data-unit": u, tabindex: "0", role: "button",
          "aria-label": u + " " + (info.name || "") });
        cg.appendChild(sv("rect", { x: x, y: y, width: size, height: size, rx: 3,
          fill: sideColor[info.side] || "#808080" }));
        if (i === 0) {
          var t1 = sv("text", { x: at[0], y: at[1] - size * 0.12 });
          t1.textContent = info.type || u;
          var t2 = sv("text", { x: at[0], y: at[1] + size * 0.3, "class": "vals" });
          t2.textContent = values(info);
          if (t2.textContent.length > 5) { t2.setAttribute("textLength", size - 6); t2.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
          cg.appendChild(t1); cg.appendChild(t2);
          if (ids.length > 1) {
            var n = sv("text", { x: at[0] + size / 2 + off - 1, y: at[1] - size / 2 - 2, "class": "count" });
            n.textContent = "\u00d7" + ids.length;
            cg.appendChild(n);
          }
        }
        sg.appendChild(cg);
      }
      g.appendChild(sg);
    });
  }
  function mid(a, b) { return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]; }
  function drawMarks() {
    var g = $("marks"); clear(g);
    D.steps[step].events.forEach(function (ev, i) {
      ev.marks.forEach(function (m) {
        var kind = m[0], pts = m[1].map(function (p) { return B.places[p]; }).filter(Boolean);
        if (!pts.length) { return; }
        var mg = sv("g", { "class": "mark" + (i === selected ? " sel" : ""), "data-event": i, "data-kind": kind });
        var title = sv("title"); title.textContent = "[" + ev.rule + "] " + ev.text; mg.appendChild(title);
        if (kind === "eliminate") {
          var k = size * 0.6, p = pts[0];
          [[-k, -k, k, k], [-k, k, k, -k]].forEach(function (d) {
            mg.appendChild(sv("line", { x1: p[0] + d[0], y1: p[1] + d[1], x2: p[0] + d[2], y2: p[1] + d[3],
              stroke: "#c81e1e", "stroke-width": 6, "stroke-linecap": "round" }));
          });
        } else if (pts.length >= 2) {
          var color = { attack: "#c81e1e", retreat: "#e67800" }[kind] || "#141414";
          mg.appendChild(sv("polyline", { points: pts.map(function (q) { return q.join(","); }).join(" "),
            fill: "none", stroke: color, "stroke-width": 4, "stroke-dasharray": kind === "retreat" ? "10 7" : "none",
            "marker-end": "url(#head-" + (kind === "attack" || kind === "retreat" ? kind : "move") + ")" }));
          if (kind === "attack" && ev.data.differential !== undefined) {
            var c = mid(pts[0], pts[pts.length - 1]);
            var lab = sv("text", { x: c[0], y: c[1] - 6, "class": "dlabel" });
            lab.textContent = String(ev.data.differential);
            mg.appendChild(lab);
          }
        }
        g.appendChild(mg);
      });
    });
  }

  /* ---- the text panels ---- */
  function row(cells, th) {
    return el("tr", {}, cells.map(function (c) { return el(th ? "th" : "td", {}, [c]); }));
  }
  function drawSummary() {
    var st = D.steps[step], box = $("summary"); clear(box);
    box.appendChild(el("h2", {}, ["Game-Turn " + st.turn + ", " + st.phase]));
    box.appendChild(el("p", {}, [st.active_side ? "Whose move: " + (sideName[st.active_side] || st.active_side) : "No side is to move."]));
    box.appendChild(el("p", { id: "awaiting" }, [st.awaiting ? "Waiting for: " + st.awaiting : "The game is over."]));
    st.pending.forEach(function (p) {
      box.appendChild(el("div", { "class": "pending" }, [p.side + " must answer " + p.id + " [" + p.rule + "]: " +
        p.prompt + ". Options: " + p.options.join(", ") + "."]));
    });
    if (st.score) {
      var t = el("table", { id: "score" }, [row(["Side", "VP"], true)]);
      st.score.sides.forEach(function (s) { t.appendChild(row([s[0], String(s[1])])); });
      box.appendChild(el("h2", {}, ["Score" + (st.score.final ? " (final)" : "") + (st.score.rule ? " [" + st.score.rule + "]" : "")]));
      box.appendChild(t);
      if (st.score.net !== null && st.score.net !== undefined) {
        box.appendChild(el("p", { id: "level" }, ["Net " + st.score.net + (st.score.level ? "; level of victory now: " + st.score.level : "")]));
      }
      if (st.score.result) {
        box.appendChild(el("p", { id: "result" }, ["Result: " + st.score.result]));
      }
    }
  }
  function drawEvents() {
    var st = D.steps[step], ol = $("events"); clear(ol);
    if (!st.events.length) { ol.appendChild(el("li", {}, ["Nothing happened on the map in this step."])); }
    st.events.forEach(function (ev, i) {
      var li = el("li", { "data-event": i, tabindex: "0", "class": i === selected ? "sel" : "" },
        [el("span", { "class": "rule" }, ["[" + ev.rule + "] "]), ev.text]);
      ol.appendChild(li);
    });
    $("maptext").textContent = "Step " + (step + 1) + ": " + st.title + ". " +
      st.events.map(function (ev) { return ev.text + " [" + ev.rule + "]"; }).join("; ");
    showEvent();
  }
  function showEvent() {
    var box = $("eventinfo"); clear(box);
    var ev = D.steps[step].events[selected];
    if (!ev) { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("p", {}, [el("b", {}, [ev.kind]), " [" + ev.rule + "] " + ev.text]));
    if (ev.data.differential !== undefined) {
      box.appendChild(el("p", { "class": "differential" }, ["Differential: " + ev.data.differential]));
    }
    (ev.dice || []).forEach(function (d) {
      box.appendChild(el("p", { "class": "die" }, ["Die: " + d.roll + " [" + d.rule + "] " + d.text]));
    });
    var t = el("table", {}, []);
    Object.keys(ev.data).forEach(function (k) {
      var v = ev.data[k];
      t.appendChild(row([k, Array.isArray(v) ? v.join(", ") : (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))]));
    });
    box.appendChild(t);
  }
  function selectEvent(i) {
    selected = selected === i ? -1 : i;
    drawMarks(); drawEvents();
  }
  function drawDice() {
    var st = D.steps[step], box = $("dice"); clear(box);
    if (!st.rolls.length) { box.appendChild(el("p", {}, ["No die rolled in this step (or none this side may see)."])); }
    else {
      var t = el("table", { id: "rolls" }, [row(["#", "Purpose", "Rule", "Die", "Roll", "HMAC"], true)]);
      st.rolls.forEach(function (r) {
        t.appendChild(row([String(r.index), r.purpose, r.rule, "d" + r.sides, String(r.value), el("code", {}, [r.hmac])]));
      });
      box.appendChild(t);
    }
    if (st.dice) {
      box.appendChild(el("p", {}, ["Seed " + st.dice.seed_index + " revealed: ", el("code", {}, [st.dice.seed]),
        ". Check: its SHA-256 is seed " + (st.dice.seed_index - 1) + ", ", el("code", {}, [st.dice.previous_seed || ""]),
        "; roll j = the first 4 bytes of HMAC-SHA256(seed, orders SHA-256 \u2016 j \u2016 attempt), mod the die's sides, plus 1 (docs/dice.md). `referee verify` checks every roll."]));
      if (st.rolls.length) {
        var b = el("button", { type: "button", id: "checkdice" }, ["Check these dice here"]);
        b.onclick = checkDice;
        box.appendChild(b);
        box.appendChild(el("div", { id: "dicecheck", role: "status", "aria-live": "polite" }, []));
      }
    }
  }
  /* the dice recomputed here, as docs/dice.md says (Web Crypto; file: pages may use it) */
  function hexBytes(h) {
    var a = new Uint8Array(h.length / 2);
    for (var i = 0; i < a.length; i++) { a[i] = parseInt(h.substr(2 * i, 2), 16); }
    return a;
  }
  function bytesHex(b) {
    return Array.prototype.map.call(new Uint8Array(b), function (x) { return (x < 16 ? "0" : "") + x.toString(16); }).join("");
  }
  function u32(n) { return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]; }
  function checkDice() {
    var st = D.steps[step], out = $("dicecheck"); clear(out);
    if (!window.crypto || !crypto.subtle) {
      out.textContent = "This browser cannot compute SHA-256 for a local file: run referee verify."; return;
    }
    var seed = hexBytes(st.dice.seed), lines = [];
    crypto.subtle.digest("SHA-256", seed).then(function (h) {
      var ok = bytesHex(h) === st.dice.previous_seed;
      lines.push([ok, "SHA-256 of seed " + st.dice.seed_index + (ok ? " is " : " is NOT ") + "seed " + (st.dice.seed_index - 1)]);
      return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    }).then(function (key) {
      return Promise.all(st.rolls.map(function (r) {
        var msg = new Uint8Array(Array.from(hexBytes(r.orders_sha256)).concat(u32(r.counter), u32(r.attempt)));
        return crypto.subtle.sign("HMAC", key, msg).then(function (mac) {
          var m = new Uint8Array(mac), x = ((m[0] << 24) >>> 0) + (m[1] << 16) + (m[2] << 8) + m[3];
          var v = (x % r.sides) + 1, ok = bytesHex(mac) === r.hmac && v === r.value;
          lines.push([ok, "roll " + r.index + " (" + r.purpose + "): HMAC " + (bytesHex(mac) === r.hmac ? "matches" : "DIFFERS") + ", d" + r.sides + " = " + v + (v === r.value ? ", as recorded" : ", NOT the recorded " + r.value)]);
        });
      }));
    }).then(function () {
      lines.forEach(function (l) { out.appendChild(el("p", { "class": l[0] ? "ok" : "bad" }, [(l[0] ? "\u2713 " : "\u2717 ") + l[1]])); });
    });
  }
  function drawCheck() {
    var st = D.steps[step], box = $("check"); clear(box);
    box.appendChild(el("p", {}, ["Report " + String(st.sequence).padStart(3, "0") + ", report.json SHA-256 ", el("code", { id: "sha" }, [st.report_sha256])]));
    box.appendChild(el("p", {}, ["Previous report: ", el("code", {}, [st.previous_report || "none (the first)"])]));
    box.appendChild(el("p", { id: "signature" }, ["Signature: " + st.signature + "; referee key ", el("code", {}, [D.referee.slice(0, 16)])]));
    if (st.orders) {
      box.appendChild(el("p", {}, [st.orders.side + "'s orders, " + (st.orders.committed ? "committed as " : "SHA-256 "), el("code", {}, [st.orders.sha256 || ""])]));
    }
    box.appendChild(el("p", {}, ["Check it: ", el("code", { id: "verifyline" }, ["referee verify " + D.game_dir + " --head " + st.report_sha256])]));
  }
  function drawUnitTable() {
    var box = $("unittable"); clear(box);
    var t = el("table", {}, [row(["Unit", "Name", "Side", "Where", "Status"], true)]);
    Object.keys(placements[step]).sort().forEach(function (u) {
      var p = placements[step][u], info = D.units[u] || {};
      t.appendChild(row([u, info.name || "", sideName[info.side] || info.side || "", p[0] || (p[1] ? "box " + p[1] : ""), p[2].join(", ")]));
    });
    box.appendChild(t);
  }
  function showUnit(u) {
    var box = $("unitinfo"); clear(box);
    if (!u) { box.hidden = true; return; }
    var p = placements[step][u], info = D.units[u] || { values: {} };
    if (!p) { box.hidden = true; return; }
    var stack = stacksAt(step)[p[0]] || [u];
    box.hidden = false;
    box.appendChild(el("b", {}, [u + (info.name ? " \u2014 " + info.name : "")]));
    if (stack.length > 1) {  /* first, so a phone's short unit box shows it without scrolling */
      box.appendChild(el("p", { "class": "stacknote" }, [(stackCycle(p[0]).indexOf(u) + 1) + " of " + stack.length +
        " in this stack (tap it again for the next): ", stackButtons(u, p[0])]));
    }
    var t = el("table", {}, []);
    t.appendChild(row(["Side", sideName[info.side] || info.side || ""]));
    t.appendChild(row(["Type", (info.type || "") + (info.category ? " (" + info.category + ")" : "")]));
    Object.keys(info.values || {}).forEach(function (k) { t.appendChild(row([k, String(info.values[k])])); });
    t.appendChild(row(["Where", p[0] || ""]));
    t.appendChild(row(["Status", p[2].length ? p[2].join(", ") : "normal"]));
    t.appendChild(row(["Stack", stack.join(", ")]));
    box.appendChild(t);
  }
  function stackButtons(u, loc) {  /* the units of a stack, each a button that picks it (issue 28):
    a counter under the top one has no place of its own to tap */
    var span = el("span", { "class": "stackunits", role: "list", "aria-label": "Units of this stack" }, []);
    stackCycle(loc).forEach(function (v, i) {
      if (i) { span.appendChild(document.createTextNode(", ")); }
      var b = el("button", { type: "button", "class": "stackunit", role: "listitem", "data-unit": v,
        "aria-pressed": v === u ? "true" : "false", title: (D.units[v] || {}).name || v }, [v]);
      b.onclick = function () { pinUnit(v); };
      span.appendChild(b);
    });
    return span;
  }

  /* ---- steps ---- */
  function go(n) {
    step = Math.max(0, Math.min(D.steps.length - 1, n));
    selected = -1; pinned = null;
    var st = D.steps[step];
    $("slider").value = step;
    $("stepno").textContent = (step + 1) + " / " + D.steps.length;
    $("status").textContent = "Step " + (step + 1) + " of " + D.steps.length + ": " + st.title +
      " \u2014 Game-Turn " + st.turn + ", " + st.phase;
    drawUnits(); drawMarks(); drawSummary(); drawEvents(); drawDice(); drawCheck(); drawUnitTable();
    showUnit(null);
    if (D.draft) { $("draftstep").hidden = step === D.steps.length - 1; pick(picked); }
  }
  var timer = null;
  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "Play"; return; }
    if (step >= D.steps.length - 1) { go(0); }
    $("play").textContent = "Pause";
    timer = setInterval(function () {
      if (step >= D.steps.length - 1) { play(); return; }
      go(step + 1);
    }, 1400);
  }
  $("first").onclick = function () { go(0); };
  $("prev").onclick = function () { go(step - 1); };
  $("next").onclick = function () { go(step + 1); };
  $("last").onclick = function () { go(D.steps.length - 1); };
  $("play").onclick = play;
  $("slider").oninput = function () { go(parseInt(this.value, 10)); };

  /* ---- zoom and pan: wheel, trackpad (ctrl+wheel pinch), drag, two-finger pinch ---- */
  var vp = $("viewport"), world = $("world"), view = { k: 1, x: 0, y: 0 };
  function apply() {
    world.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.k + ")";
    if (view.k !== markK) { sizeMarks(); }
  }
  /* The option marks (a move's end, a target, "+n" beside a stack) are drawn in the map's
     units and shrink with it: on a phone the map fits a narrow screen and a mark was 11-13
     CSS px wide. Each is kept at least MARK_MIN (at phone width MARK_MIN_PHONE) CSS px in
     radius on the screen, grown about its own centre, but never past half the way to the
     nearest other mark (on a dense map, the naval module's sea hexes, they would cover each
     other: there the player zooms in); zoomed in, a mark grows with the map. */
  var MARK_MIN = 9, MARK_MIN_PHONE = 13, markK = null, markDiscs = [], framedForce = null;
  var phoneWide = window.matchMedia ? window.matchMedia("(max-width: 760px)") : null;
  function measureMarks() {  /* each mark's disc and the room around it, once a drawing */
    markDiscs = [];
    document.querySelectorAll("#optmarks .opt").forEach(function (o) {
      var c = o.querySelector("circle");
      if (c) { markDiscs.push({ g: o, x: +c.getAttribute("cx"), y: +c.getAttribute("cy"), r: +c.getAttribute("r"), room: Infinity }); }
    });
    /* each one's nearest, sorted by x: a side is searched only as far as the nearest found
       (thousands of marks, a ship's or an air unit's every hex, in a few milliseconds) */
    var n = markDiscs.length;
    markDiscs.sort(function (a, b) { return a.x - b.x; });
    function near(a, b) { var d = Math.sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); if (d < a.room) { a.room = d; } }
    for (var i = 0; i < n; i++) {
      var a = markDiscs[i], j;
      for (j = i + 1; j < n && markDiscs[j].x - a.x < a.room; j++) { near(a, markDiscs[j]); }
      for (j = i - 1; j >= 0 && a.x - markDiscs[j].x < a.room; j--) { near(a, markDiscs[j]); }
    }
  }
  function sizeMarks() {
    markK = view.k;
    var min = markMin();
    markDiscs.forEach(function (m) {
      var s = Math.min(min / (view.k * m.r), m.room / 2 / m.r);
      if (s > 1) { m.g.setAttribute("transform", "translate(" + m.x + " " + m.y + ") scale(" + s + ") translate(" + (-m.x) + " " + (-m.y) + ")"); }
      else { m.g.removeAttribute("transform"); }
    });
  }
  function zoomAt(f, cx, cy) {
    var k = Math.max(0.05, Math.min(8, view.k * f));
    view.x = cx - (cx - view.x) * (k / view.k); view.y = cy - (cy - view.y) * (k / view.k); view.k = k; apply();
  }
  function zoomCentre(f) { zoomAt(f, vp.clientWidth / 2, vp.clientHeight / 2); }
  function fit() {
    var k = Math.min(vp.clientWidth / B.width, vp.clientHeight / B.height);
    view.k = k; view.x = (vp.clientWidth - B.width * k) / 2; view.y = (vp.clientHeight - B.height * k) / 2;
    apply();
  }
  function region() {  /* where this step happened (its marks), else every unit shown */
    var xs = [], ys = [];
    function add(p) { var q = B.places[p]; if (q) { xs.push(q[0]); ys.push(q[1]); } }
    D.steps[step].events.forEach(function (ev) { ev.marks.forEach(function (m) { m[1].forEach(add); }); });
    var pad = B.hex_width * (xs.length ? 3 : 1.5);
    if (!xs.length) { Object.keys(placements[step]).forEach(function (u) { add(placements[step][u][0]); }); }
    if (!xs.length) { fit(); return; }
    var x0 = Math.min.apply(null, xs) - pad, x1 = Math.max.apply(null, xs) + pad;
    var y0 = Math.min.apply(null, ys) - pad, y1 = Math.max.apply(null, ys) + pad;
    var k = Math.min(vp.clientWidth / (x1 - x0), vp.clientHeight / (y1 - y0), 2);
    view.k = k; view.x = vp.clientWidth / 2 - k * (x0 + x1) / 2; view.y = vp.clientHeight / 2 - k * (y0 + y1) / 2;
    apply();
  }
  $("zoomin").onclick = function () { zoomCentre(1.25); };
  $("zoomout").onclick = function () { zoomCentre(0.8); };
  $("fit").onclick = fit;
  $("region").onclick = function () { region(); };
  vp.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = vp.getBoundingClientRect();
    zoomAt(Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  var pts = {}, moved = 0, last = null;
  function centre() {
    var ks = Object.keys(pts), r = vp.getBoundingClientRect();
    var x = 0, y = 0;
    ks.forEach(function (k) { x += pts[k][0]; y += pts[k][1]; });
    x = x / ks.length - r.left; y = y / ks.length - r.top;
    var d = ks.length > 1 ? Math.hypot(pts[ks[0]][0] - pts[ks[1]][0], pts[ks[0]][1] - pts[ks[1]][1]) : 0;
    return { x: x, y: y, d: d, n: ks.length };
  }
  vp.addEventListener("pointerdown", function (e) {
    pts[e.pointerId] = [e.clientX, e.clientY]; moved = 0; last = centre();
  });
  window.addEventListener("pointermove", function (e) {
    placeUnder(e);
    if (!pts[e.pointerId]) { return; }
    pts[e.pointerId] = [e.clientX, e.clientY];
    var c = centre();
    if (last && c.n === last.n) {
      view.x += c.x - last.x; view.y += c.y - last.y;
      moved += Math.abs(c.x - last.x) + Math.abs(c.y - last.y);
      if (c.n > 1 && last.d > 0) { zoomAt(c.d / last.d, c.x, c.y); } else { apply(); }
      if (moved > 4) { vp.classList.add("dragging"); }
    }
    last = c;
  });
  function up(e) {
    delete pts[e.pointerId]; last = Object.keys(pts).length ? centre() : null;
    vp.classList.remove("dragging");
  }
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);

  /* ---- the place under the pointer ---- */
  function inside(poly, x, y) {
    var c = false;
    for (var i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      if ((poly[i][1] > y) !== (poly[j][1] > y) &&
          x < (poly[j][0] - poly[i][0]) * (y - poly[i][1]) / (poly[j][1] - poly[i][1]) + poly[i][0]) { c = !c; }
    }
    return c;
  }
  function placeAt(x, y) {
    var best = null, bd = Infinity;
    Object.keys(B.places).forEach(function (p) {
      if (B.kinds[p] === "zone") { return; }
      var q = B.places[p], d = Math.hypot(q[0] - x, q[1] - y);
      var reach = B.kinds[p] === "hex" ? B.hex_width * 0.58 : B.hex_width * 0.6;
      if (d < bd && d <= reach) { bd = d; best = p; }
    });
    if (best) { return best; }
    var zs = Object.keys(B.zones);
    for (var i = 0; i < zs.length; i++) { if (inside(B.zones[zs[i]], x, y)) { return zs[i]; } }
    return null;
  }
  function counterAt(cx, cy) {
    var under = document.elementsFromPoint(cx, cy);
    for (var i = 0; i < under.length; i++) {
      var c = under[i].closest ? under[i].closest(".counter") : null;
      if (c) { return c; }
    }
    return null;
  }
  function placeUnder(e) {
    var r = vp.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) { return; }
    var x = (e.clientX - r.left - view.x) / view.k, y = (e.clientY - r.top - view.y) / view.k;
    var p = placeAt(x, y);
    $("here").textContent = p || "\u2013";
    if (!pinned) {  /* a counter under the marks (an attack ends on it) still answers */
      var c = counterAt(e.clientX, e.clientY);
      showUnit(c ? c.getAttribute("data-unit") : null);
    }
  }

  /* ---- clicks and taps: counters, marks, events, play aids ---- */
  $("overlay").addEventListener("click", function (e) {
    if (moved > 4) { return; }
    var m = e.target.closest(".mark"), c = m ? null : counterAt(e.clientX, e.clientY);
    if (m) { selectEvent(parseInt(m.getAttribute("data-event"), 10)); return; }
    if (composing && composing.c.compose === "hexes") {  /* a hex pointed at joins the line */
      var r = vp.getBoundingClientRect();
      var hp = placeAt((e.clientX - r.left - view.x) / view.k, (e.clientY - r.top - view.y) / view.k);
      if (hp && composeTakes(hp)) { composeAdd(hp); return; }
    }
    if (c && forcePoint(c.getAttribute("data-unit"))) { return; }
    if (c) { pinUnit(tapped(c.getAttribute("data-unit"))); return; }
    pinned = null; showUnit(null);
  });
  /* a stack's units in the order taps on it pick them (issue 28): while drafting, the side's
     units with orders at this step first, then the others, each part top first */
  function stackCycle(loc) {
    var ids = stacksAt(step)[loc] || [], R = D.draft;
    if (!R || step !== D.steps.length - 1) { return ids; }
    return ids.filter(function (v) { return R.units[v]; }).concat(ids.filter(function (v) { return !R.units[v]; }));
  }
  function tapped(u) {  /* the counter under the finger (the stack's top); tapped again, the
    stack of the unit shown or picked gives its next unit, so any unit of a stack can be picked */
    var cur = pinned || (D.draft ? picked : null), p = placements[step][u], q = cur && placements[step][cur];
    if (!p || !p[0] || !q || q[0] !== p[0]) { return u; }
    var cyc = stackCycle(p[0]);
    return cyc.length > 1 ? cyc[(cyc.indexOf(cur) + 1) % cyc.length] : u;
  }
  function pinUnit(u) {  /* u shown (its values and its stack), and picked when the side may order it */
    pinned = u; showUnit(u);
    if (D.draft && step === D.steps.length - 1 && (D.draft.units[u] || ownUnit(u))) { pick(u); }
  }
  $("events").addEventListener("click", function (e) {
    var li = e.target.closest("li[data-event]");
    if (li) { selectEvent(parseInt(li.getAttribute("data-event"), 10)); }
  });
  document.querySelectorAll("button.aid").forEach(function (b) {
    b.onclick = function () { $("aid-" + b.getAttribute("data-aid")).showModal(); };
  });

  /* ---- keyboard: arrows step, + and - zoom, 0 the whole map, R the region of play, Enter opens ---- */
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t && t.id === "slider") { return; }
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(D.steps.length - 1); e.preventDefault(); }
    else if (e.key === "+" || e.key === "=") { zoomCentre(1.25); }
    else if (e.key === "-" || e.key === "_") { zoomCentre(0.8); }
    else if (e.key === "0") { fit(); }
    else if (e.key === "r" || e.key === "R") { region(); }
    else if (e.key === "Enter" && t && t.getAttribute) {
      if (t.getAttribute("data-event") !== null && t.tagName === "LI") { selectEvent(parseInt(t.getAttribute("data-event"), 10)); }
      else if (t.getAttribute("data-unit") !== null) { pinned = t.getAttribute("data-unit"); showUnit(pinned); }
    }
  });

  /* ---- the orders mode (issue 28): the awaited side points at the legal orders the referee
     computed for it (D.draft, its options-SIDE.json) and the page drafts orders.txt. It holds
     no key; `referee validate` and the referee judge the file. */
  var R = D.draft, picked = null, used = {}, byUnit = {};
  function plainTree(t) {  /* options format 4 writes a move tree as each place's successors
    (kids) and each label's ends (labels); read it back as each place's predecessor (prev)
    and each end's label (ends), the shape of formats 1-3 */
    if (t.prev) { return t; }
    var prev = {}, ends = {};
    Object.keys(t.kids || {}).forEach(function (p) { t.kids[p].forEach(function (h) { prev[h] = p; }); });
    Object.keys(t.labels || {}).forEach(function (l) { t.labels[l].forEach(function (h) { ends[h] = l; }); });
    return { prev: prev, ends: ends };
  }
  if (R) { R.trees = (R.trees || []).map(plainTree); }
  function spelled(h) { return h.indexOf(" ") >= 0 ? '"' + h + '"' : h; }  /* a name with spaces, quoted as an order line writes it */
  function wordsOf(line) {  /* a drafted line read back as the referee reads it (referee/engine/
    orders.py, _tokens): a comment dropped, a name in double quotes one word (its quotes off),
    "->" a word of its own; an unclosed quote ends the words (validate names it) */
    var out = [], re = /"[^"]*"|[^\s"]+|"/g, m, text = line.split("#")[0];
    while ((m = re.exec(text)) !== null) {
      var w = m[0];
      if (w.charAt(0) === '"') {
        if (w.length < 2 || w.charAt(w.length - 1) !== '"') { break; }
        out.push(w.slice(1, -1).trim());
        continue;
      }
      w.split(/(->)/).forEach(function (part) { if (part) { out.push(part); } });
    }
    return out;
  }
  function pathTo(tree, h) {
    var out = [], seen = {};
    while (h && !seen[h]) { seen[h] = 1; out.unshift(h); h = tree.prev[h]; }
    return out;
  }
  function choicesOf(u) {  /* the unit's choices the draft allows now (format 8: draftAllows); a unit
    the options do not list (none of its orders at this step): none */
    var e = R.units[u];
    if (!e) { return []; }
    var out = e.choices.map(function (c) { return behindRoute(u, c); })
      .filter(function (c) { return draftAllows(u, c); });
    if (e.route) {
      var tree = R.trees[e.route.tree];
      Object.keys(tree.ends).sort().forEach(function (h) {
        var p = pathTo(tree, h);
        out.push({ order: e.route.order + " " + p.map(spelled).join(" "), kind: e.route.kind, at: h, path: p, label: tree.ends[h] });
      });
    }
    return out;
  }
  function draftHead() {
    return R.header.join("\n") + "\n\n[" + R.section + "]\n";
  }
  function takenBy(c) {  /* what an order uses, used by one already drafted: a unit in an
    attack attacks no more [8.12]; a DTP impulse makes one attack [DTP 8.2] */
    return (c.uses || []).filter(function (u) { return used[u]; });
  }
  function replaceLine(text, old, line) {
    var lines = text.split("\n"), i = lines.indexOf(old);
    if (i < 0) { return null; }
    lines[i] = line;
    return lines.join("\n");
  }
  function insertLine(text, line, section, first) {  /* at the end of its section (at its start
    when "first": a load before the ship's move, options format 4), opened if need be */
    var lines = text.replace(/\n+$/, "").split("\n"), want = "[" + (section || R.section) + "]";
    var at = lines.indexOf(want);
    if (at < 0) { return (text.trim() ? lines.join("\n") + "\n\n" : "") + want + "\n" + line + "\n"; }
    if (first) { lines.splice(at + 1, 0, line); return lines.join("\n") + "\n"; }
    var end = at + 1;
    while (end < lines.length && !/^\s*\[/.test(lines[end])) { end++; }
    while (end > at + 1 && lines[end - 1].trim() === "") { end--; }
    lines.splice(end, 0, line);
    return lines.join("\n") + "\n";
  }
  function addLine(line, key, section, first) {
    var ta = $("draft"), text = ta.value;
    if (key && byUnit[key] && byUnit[key] !== line) {
      var swapped = replaceLine(text, byUnit[key], line);
      if (swapped !== null) { ta.value = dropBehind(swapped, byUnit[key]); byUnit[key] = line; return "replaced"; }
    }
    if (key && byUnit[key] === line && text.split("\n").indexOf(line) >= 0) { return "already"; }
    ta.value = insertLine(text, line, section, first);
    if (key) { byUnit[key] = line; }
    return "added";
  }
  /* ---- lines that depend on the draft (options format 8). A choice's "after" is the line it
     follows: offered once that line is in the draft, drafted right behind it (and dropped
     with it when a later choice replaces it): a detection attempt right after the unit's own
     move [DTP 6.2a], commence prc with commence [DTP 11.51021]. A choice's "spends" takes
     from the file's "allowances": offered only while what the draft's lines spend leaves
     room for it (the LP, Hangar and missile room of Carrier Battlegroup's purchases [9.1],
     [9.2]; its one Intelligence attempt a turn [11.0]). Read from the draft's text, so a line
     typed or deleted by hand counts too; validate judges the file. */
  var behind = {}, spendsOf = null;  /* a line drafted behind another: that line */
  function draftLines() { return $("draft").value.split("\n").map(function (l) { return l.trim(); }); }
  function spendIndex() {  /* each line of the file that spends, by its order */
    if (spendsOf) { return spendsOf; }
    spendsOf = {};
    function add(c) { if (c.spends) { spendsOf[c.order] = c.spends; } }
    Object.keys(R.units).forEach(function (u) { R.units[u].choices.forEach(add); });
    (R.side_choices || []).forEach(add);
    return spendsOf;
  }
  function spent(name, lines, except) {  /* what the draft's lines spend of an allowance, but "except" */
    var idx = spendIndex(), n = 0;
    lines.forEach(function (l) { if (l !== except && idx[l] && idx[l][name]) { n += idx[l][name]; } });
    return n;
  }
  function behindRoute(u, c) {  /* "after_route": the end of the unit's move tree whose line it follows */
    if (c.after_route === undefined) { return c; }
    var r = R.units[u].route, p = pathTo(R.trees[r.tree], c.after_route);
    return Object.assign({}, c, { after: r.order + " " + p.map(spelled).join(" ") });
  }
  function draftAllows(u, c) {
    if (!c.after && !c.spends) { return true; }
    var lines = draftLines();
    if (c.after && lines.indexOf(c.after) < 0) { return false; }
    if (!c.spends) { return true; }
    var key = draftKey(u, c), gone = key && byUnit[key] && byUnit[key] !== c.order ? byUnit[key] : null;
    var except = lines.indexOf(c.order) >= 0 ? c.order : gone;  /* drafted already, or the line it replaces */
    return Object.keys(c.spends).every(function (name) {
      var has = (R.allowances || {})[name];
      return has === undefined || spent(name, lines, except) + c.spends[name] <= has;
    });
  }
  function allowanceNotes(u) {  /* what is left of each allowance the unit's lines spend */
    var names = {}, lines = draftLines();
    R.units[u].choices.forEach(function (c) { Object.keys(c.spends || {}).forEach(function (n) { names[n] = 1; }); });
    return Object.keys(names).sort().filter(function (n) { return (R.allowances || {})[n] !== undefined; }).map(function (n) {
      var has = R.allowances[n];
      return n + ": " + (has - spent(n, lines, null)) + " of " + has + " left in this draft";
    });
  }
  function addBehind(line, anchor, key, section) {  /* right behind "anchor" and the lines already behind it */
    var ta = $("draft"), lines = ta.value.split("\n"), at = lines.map(function (l) { return l.trim(); }).indexOf(anchor);
    if (lines.map(function (l) { return l.trim(); }).indexOf(line) >= 0) { return "already"; }
    if (at < 0) { return addLine(line, key, section); }
    var end = at + 1;
    while (end < lines.length && behind[lines[end].trim()] === anchor) { end++; }
    lines.splice(end, 0, line);
    ta.value = lines.join("\n");
    behind[line] = anchor;
    if (key) { byUnit[key] = line; }
    return "added";
  }
  function dropBehind(text, anchor) {  /* the lines drafted behind a line that is replaced go with it */
    return text.split("\n").filter(function (l) {
      if (behind[l.trim()] !== anchor) { return true; }
      delete behind[l.trim()];
      return false;
    }).join("\n");
  }
  /* a composed line (options format 3): the player builds it word by word. "stack": the
     units ending in the unit's hex, top first, air above naval [7.43]; "hexes": places
     picked in order from the choice's list (standing retreat preferences [8.71]). */
  var composing = null;
  function endOf(u) {  /* where a unit ends after the draft: its drafted place or move, else where it is */
    var line = byUnit[u + " where"];
    if (line && $("draft").value.split("\n").indexOf(line) >= 0) {
      var w = wordsOf(line), last = w[w.length - 1];
      if (B.places[last] && w[w.length - 2] !== "cap" && w[w.length - 2] !== "box") { return last; }
      if (placements[step][last]) { return placements[step][last][0] || null; }  /* carrier air: its carrier's hex */
    }
    var p = placements[step][u];
    return p && p[0] ? p[0] : null;
  }
  function stackChoice(u) {
    var e = R.units[u];
    return e ? e.choices.filter(function (c) { return c.compose === "stack"; })[0] || null : null;
  }
  function composeLine() {
    var k = composing;
    if (k.c.compose === "force") { return forceLine(k.force); }
    var words = k.c.compose === "stack"
      ? k.words.filter(function (w) { return stackChoice(w).layer === "air"; }).concat(
        k.words.filter(function (w) { return stackChoice(w).layer !== "air"; }))
      : k.words;
    return k.base + " " + words.map(spelled).join(" ");
  }
  function composeCandidates() {
    var k = composing;
    if (!k) { return []; }
    if (k.c.compose === "force") { return forceCandidates(); }
    if (k.c.most && k.words.length >= k.c.most) { return []; }  /* the rule's count reached (format 5) */
    if (k.c.compose !== "stack") { return (k.c.from || []).filter(function (h) { return k.words.indexOf(h) < 0; }); }
    return Object.keys(R.units).sort().filter(function (v) {
      return k.words.indexOf(v) < 0 && stackChoice(v) && endOf(v) === k.hex;
    });
  }
  function composeTakes(w) {  /* a marked candidate, or with "anywhere" any hex of the board */
    if (!composing) { return false; }
    if (composeCandidates().indexOf(w) >= 0) { return true; }
    return !!composing.c.anywhere && B.kinds[w] === "hex" && composing.words.indexOf(w) < 0;
  }
  function composeAdd(w) {
    if (!composeTakes(w)) { return; }
    if (composing.c.compose === "force") { forceAdd(w); return; }
    composing.words.push(w);
    var line = composeLine();
    addLine(line, composing.key, composing.c.section);
    $("draftnote").textContent = "Composing: " + line;
    listChoices(null); drawOptions();
  }
  function startCompose(u, c) {
    if (c.compose === "stack") {
      var hex = endOf(u);
      if (!hex) { $("draftnote").textContent = u + " is not on the map: place or move it first."; return; }
      composing = { u: u, c: c, base: "stack " + spelled(hex), hex: hex, key: "stack " + hex, words: [u] };
      var line = composeLine();
      addLine(line, composing.key, c.section);
      $("draftnote").textContent = "Composing: " + line + " (add the others ending in " + hex + ", top first; list every naval unit there [7.42])";
    } else {  /* "hexes": places on the map; "words": units or words from a list */
      composing = { u: u, c: c, base: c.order, key: (c.group || u) + " " + c.kind, words: [] };
      $("draftnote").textContent = "Composing: " + c.order + " \u2026 (" +
        (c.compose === "hexes" ? "point at the hexes, first choice first" : "add them in order") +
        (c.anywhere ? ": the marked ones next to it, or any other hex of the map)" : ")");
    }
    listChoices(null); drawOptions();
  }
  var EACH_ITS_OWN = { buy: true, repair: true, detect: true };
  /* kinds whose every line is an order of its own beside the unit's others of the kind: a
     purchase [CBG 9.1], a repair (two carrier systems in one Logistics Phase [CBG 10.1]), a
     detection attempt on another target [DTP 6.22]; not alternatives, where a later choice
     replaces the earlier (a unit's place or move, its abort, its standing order) */
  function draftKey(u, c) {  /* what a later choice replaces: the same key's line */
    if (c.uses) { return null; }
    if (EACH_ITS_OWN[c.kind] || c.after) { return "line " + c.order; }
    return (c.group || u) + " " + (c.kind === "place" || c.kind === "move" ? "where" : c.kind);
  }
  function choose(u, c) {
    if (c.compose) { startCompose(u, c); return; }
    if (takenBy(c).length) { return; }
    var key = draftKey(u, c);
    var how = c.after ? addBehind(c.order, c.after, key, c.section) : addLine(c.order, key, c.section, c.first);
    (c.uses || []).forEach(function (x) { used[x] = c.order; });
    $("draftnote").textContent = (how === "replaced" ? "Replaced " + u + "'s earlier order: " : how === "already" ? "Already in the draft: " : "Added: ") + c.order;
    if (u !== "side") { forceStart(u, c, key); }
    pick(u === "side" ? picked : u); drawSideChoices();
  }
  function optTitle(c) {  /* a label that only repeats a word of the line is left out; a rule case alone is not put in parentheses */
    var l = c.label || "";
    if (!l || wordsOf(c.order).indexOf(l) >= 0) { return c.order; }
    return c.order + (/^\[[^\]]*\]$/.test(l) ? " " + l : " (" + l + ")");
  }
  function answerAt(a, o) {
    addLine("answer " + a.id + " " + o, "answer " + a.id);
    $("draftnote").textContent = "Answered " + a.id + ": " + o;
  }
  function drawAnswerMarks(g) {  /* a pending decision's options that are places: on the map */
    R.answers.forEach(function (a) {
      var at = markPlaces(a.options.filter(function (o) { return B.places[o]; }));
      a.options.forEach(function (o) {
        var q = at[o];
        if (!q) { return; }
        var og = sv("g", { "class": "opt answer", "data-answer": a.id, "data-option": o, tabindex: "0", role: "button",
          "aria-label": "answer " + a.id + " " + o });
        var t = sv("title"); t.textContent = "answer " + a.id + " " + o + ": " + a.prompt; og.appendChild(t);
        og.appendChild(sv("circle", { cx: q[0], cy: q[1], r: Math.max(7, size * 0.28) }));
        var lab = sv("text", { x: q[0], y: q[1] + 4 }); lab.textContent = "?"; og.appendChild(lab);
        og.addEventListener("click", function (e) { if (moved > 4) { return; } e.stopPropagation(); answerAt(a, o); });
        g.appendChild(og);
      });
    });
  }
  function drawOptions() { drawOptionMarks(); measureMarks(); frameForce(); sizeMarks(); }
  function drawOptionMarks() {
    var g = $("optmarks"); clear(g);
    if (step !== D.steps.length - 1) { return; }
    drawAnswerMarks(g);
    if (composing && composing.c.compose === "force") { drawForceMarks(g); return; }
    if (composing && composing.c.compose === "hexes") {
      var cands = composeCandidates(), spot = markPlaces(cands.filter(function (p) { return B.places[p]; }));
      cands.forEach(function (p) {
        var q = spot[p];
        if (!q) { return; }
        var og = sv("g", { "class": "opt compose", "data-word": p, tabindex: "0", role: "button", "aria-label": composeLine() + " " + p });
        var t = sv("title"); t.textContent = composeLine() + " " + p; og.appendChild(t);
        og.appendChild(sv("circle", { cx: q[0], cy: q[1], r: Math.max(7, size * 0.28) }));
        var lab = sv("text", { x: q[0], y: q[1] + 4 }); lab.textContent = String(composing.words.length + 1); og.appendChild(lab);
        og.addEventListener("click", function (e) { if (moved > 4) { return; } e.stopPropagation(); composeAdd(p); });
        g.appendChild(og);
      });
      return;
    }
    if (!picked) { return; }
    var groups = {};
    choicesOf(picked).forEach(function (c, i) {
      if (c.at && B.places[c.at]) { (groups[c.at] = groups[c.at] || []).push([c, i]); }
    });
    var e = R.units[picked];
    Object.keys(e.marks || {}).forEach(function (p) {  /* a ruleset that gives no order lines */
      if (B.places[p] && !groups[p]) { groups[p] = [[{ order: "", label: e.marks[p], at: p }, -1]]; }
    });
    var from = placements[step][picked] ? B.places[placements[step][picked][0]] : null;
    var at = markPlaces(Object.keys(groups).sort());
    Object.keys(groups).sort().forEach(function (p) {
      var q = at[p], cs = groups[p], c = cs[0][0];
      var off = cs.every(function (x) { return takenBy(x[0]).length; });
      var og = sv("g", { "class": "opt" + (off ? " off" : "") + (c.order ? "" : " info"), "data-place": p,
        "data-kind": c.kind || "", tabindex: "0", role: "button", "aria-label": cs.map(function (x) { return optTitle(x[0]); }).join("; ") });
      var t = sv("title"); t.textContent = cs.map(function (x) { return optTitle(x[0]); }).join("\n"); og.appendChild(t);
      og.appendChild(sv("circle", { cx: q[0], cy: q[1], r: Math.max(7, size * 0.28) }));
      var lab = sv("text", { x: q[0], y: q[1] + 4 });
      var n = /^(?:cost )?(\d+)\b/.exec(String(c.label || ""));  /* the cost, else a dot: the rest is in the title */
      lab.textContent = cs.length > 1 ? String(cs.length) : (c.kind === "attack" ? "\u2694" : n ? n[1] : "\u2022");
      og.appendChild(lab);
      og.addEventListener("mouseenter", function () { showPath(from, cs[0][0]); });
      og.addEventListener("mouseleave", function () { showPath(null); });
      g.appendChild(og);
    });
    var pg = sv("g", { id: "optpath" }); g.insertBefore(pg, g.firstChild);
  }
  /* Where each place's option mark goes: on the place, but where counters stand on a corner
     or a side of their top counter, so the counters' type and the place's name (an area
     map's zone) stay readable: the one farthest from the other marks, the lower right
     corner unless another has more room (then the other corners before the sides). Always
     on the lower right, a mark on a stack beside a marked place had little more than half
     the room of the others, and at phone width was 19 CSS px wide where they were 26. The
     top right corner is the stack's count's (x n). */
  var CORNERS = [[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, 0], [-0.5, 0], [0, 0.5], [0, -0.5]];
  function markPlaces(places) {
    var stacks = stacksAt(step), out = {}, fixed = [];
    places.forEach(function (p) { if (!stacks[p]) { out[p] = B.places[p]; fixed.push(out[p]); } });
    function room(q) {
      var best = Infinity;
      fixed.forEach(function (f) { var d = Math.hypot(f[0] - q[0], f[1] - q[1]); if (d < best) { best = d; } });
      return best;
    }
    places.forEach(function (p) {
      if (!stacks[p]) { return; }
      var c = B.places[p], best = null, most = -1;
      CORNERS.forEach(function (k) {
        var q = [c[0] + k[0] * size, c[1] + k[1] * size], r = room(q);
        if (r > most + 1) { most = r; best = q; }  /* a board pixel more, else the earlier corner */
      });
      out[p] = best; fixed.push(best);
    });
    return out;
  }
  function showPath(from, c) {
    var g = document.getElementById("optpath"); if (!g) { return; }
    clear(g);
    if (!from || !c || !c.path) { return; }
    var pts = [from].concat(c.path.map(function (h) { return B.places[h]; }).filter(Boolean));
    g.appendChild(sv("polyline", { points: pts.map(function (q) { return q.join(","); }).join(" "),
      fill: "none", stroke: "#1a5fb4", "stroke-width": 4, "marker-end": "url(#head-move)" }));
  }
  function clickPlace(p) {  /* one choice there: take it; several: list them */
    var cs = choicesOf(picked).filter(function (c) { return c.at === p && !takenBy(c).length; });
    if (cs.length === 1) { choose(picked, cs[0]); return true; }
    listChoices(cs.length ? p : null);
    return cs.length > 0;
  }
  function listCompose(box) {
    var force = composing.c.compose === "force";
    box.appendChild(el("p", {}, ["Composing: " + (composing.words.length || force ? composeLine() : composing.base + " \u2026")]));
    if (force) { box.appendChild(forceNote()); }
    var cands = composeCandidates();
    if (!cands.length) { box.appendChild(el("p", {}, ["Nothing more to add."])); }
    cands.forEach(function (w) {
      var b = el("button", { type: "button", "class": "choice compose", role: "listitem", "data-word": w }, [force ? forceWordLabel(w) : "add " + w]);
      b.onclick = function () { composeAdd(w); };
      box.appendChild(b);
    });
    var done = el("button", { type: "button", "class": "choice", id: "composedone" }, ["Done"]);
    done.onclick = function () { composing = null; listChoices(null); drawOptions(); };
    box.appendChild(done);
  }
  /* ---- a force (options format 5): several units in one line, `VERB UNIT UNIT ... -> REST`
     (Sixth Fleet 2019's actions, one force each [6.6], [8.1]; the naval module's strikes and
     supports by several units). The unit's line pointed at is drafted at once; then the units
     the referee found may join it (its `force`: each pair's two-unit line accepted by the
     validator) that offer the same rest of the line (the same destination, path and target)
     are offered, each one joining every unit already in, up to the verb's `force_most`; the
     line's target's like ones (`alike`: of one kind in one zone) are offered where every unit
     of the force has the line of each. Since format 6 a unit joins only within each count that caps
     the line where it ends (`force_room`: a base's room [7.1.3], a holding box's places [8.3.4]), so
     a force of three or more is one the validator accepts; what holds only for the whole file (an
     allowance shared with other lines) is `referee validate`'s to judge, and the page says so. Since format 7 a unit with no line of the verb of its own joins a one-unit line as its
     partner where the referee accepted the two (`partners`: a ground artillery unit beside a ship's defend [29.22]). */
  function forceSplit(order) {  /* as referee/pbem/draft_options.py force_parts reads a line */
    var i = order.indexOf(" -> ");
    if (i < 0) { return null; }
    var head = order.slice(0, i).split(/\s+/);
    return head.length < 2 ? null : { verb: head[0], units: head.slice(1), rest: order.slice(i + 1) };
  }
  function forceOffers(u, verb) {  /* the unit's own one-unit lines of the verb, by their rest */
    var out = {};
    if (!R.units[u]) { return out; }
    choicesOf(u).forEach(function (c) {
      var p = forceSplit(c.order);
      if (p && p.verb === verb && p.units.length === 1 && p.units[0] === u) { out[p.rest] = c; }
    });
    return out;
  }
  function forceAlike(w) {  /* the other words of w's group (options format 5 "alike": targets
    one line may name together) */
    var g = (R.alike || []).filter(function (ws) { return ws.indexOf(w) >= 0; })[0] || [];
    return g.filter(function (x) { return x !== w; });
  }
  function forceMates(u, verb) { var f = R.units[u] && R.units[u].force; return (f && f[verb]) || []; }
  function forcePairOn(a, b, verb, rest) {  /* not one of the rests the pair's line is refused on
    (format 5 "force_not": room where it ends) */
    var n = R.units[a] && R.units[a].force_not, off = n && n[verb] && n[verb][b];
    return !off || off.indexOf(rest) < 0;
  }
  function forcePartners(u, verb, rest) {  /* the units with no line of the verb of their own that may join
    u's one-unit line of this rest (format 7 "partners": a ground artillery unit beside a ship's defend [29.22]) */
    var p = R.units[u] && R.units[u].partners, on = p && p[verb];
    return (on && on[rest]) || [];
  }
  function forceWhole() {  /* a file of format 6 or later: its forces within the counts where they end */
    var m = /\/(\d+)$/.exec(R.format || "");
    return !!m && +m[1] >= 6;
  }
  function forceRoomFor(units, verb, rest) {  /* whether units fit each count that caps the verb's line
    of this rest (format 6 "force_room": [n, group], at most n of group: a base's room [7.1.3]) */
    var caps = ((R.force_room || {})[verb] || {})[rest] || [];
    return caps.every(function (cap) {
      return units.filter(function (u) { return cap[1].indexOf(u) >= 0; }).length <= cap[0];
    });
  }
  function forceStart(u, c, key) {
    var p = forceSplit(c.order);
    if (!p || p.units.length !== 1 || p.units[0] !== u) { return; }
    var words0 = p.rest.split(" "), more = forceAlike(words0[words0.length - 1]);
    var pals = forcePartners(u, p.verb, p.rest);
    if (!forceMates(u, p.verb).length && !more.length && !pals.length) { return; }
    var words = p.rest.split(" "), last = more.length ? words.pop() : null;
    composing = { u: u, c: { compose: "force", kind: p.verb, section: c.section }, key: key, words: [], line: c.order,
      force: { verb: p.verb, units: [u], rest: words.join(" "), targets: last ? [last] : [], more: more, pals: pals, end: c.at || null } };
    $("draftnote").textContent += " \u2014 add the units that act with it in one force" + (more.length ? ", or more targets of the kind" : "") + ", or Done.";
  }
  function forceRests(f) {  /* the rest of the line each unit must offer alone: one per target */
    return f.targets.length ? f.targets.map(function (t) { return f.rest + " " + t; }) : [f.rest];
  }
  function forceLine(f) {
    return f.verb + " " + f.units.join(" ") + " " + f.rest + (f.targets.length ? " " + f.targets.join(" ") : "");
  }
  function forceCandidates() {
    var f = composing.force, most = (R.force_most || {})[f.verb];
    var units = most && f.units.length >= most ? [] : Object.keys(R.units).sort().filter(function (v) {
      if (f.units.indexOf(v) >= 0) { return false; }
      if (!f.units.every(function (u) { return forceMates(u, f.verb).indexOf(v) >= 0; })) { return false; }
      var offers = forceOffers(v, f.verb);
      var withV = f.units.concat([v]);
      return forceRests(f).every(function (r) {
        return offers[r] && f.units.every(function (u) { return forcePairOn(u, v, f.verb, r); }) &&
          forceRoomFor(withV, f.verb, r);
      });
    });
    var targets = f.more.filter(function (t) {
      var r = f.rest + " " + t;
      return f.targets.indexOf(t) < 0 && forceRoomFor(f.units, f.verb, r) && f.units.every(function (u) {
        return forceOffers(u, f.verb)[r] && f.units.every(function (w) { return w === u || forcePairOn(u, w, f.verb, r); });
      });
    });
    /* a partner joins only the one-unit line it was judged with (format 7) */
    var rests = forceRests(f), pals = f.units.length === 1 && rests.length === 1 && !(most && most < 2) ?
      forcePartners(f.units[0], f.verb, rests[0]) : [];
    return units.concat(pals, targets);
  }
  function forceIsUnit(w) {  /* a unit of the side (one with options, or a partner), not a target */
    return !!R.units[w] || (!!composing && !!composing.force && (composing.force.pals || []).indexOf(w) >= 0);
  }
  function forceAdd(w) {
    var k = composing, f = k.force;
    (forceIsUnit(w) ? f.units : f.targets).push(w);
    var line = forceLine(f), ta = $("draft"), swapped = replaceLine(ta.value, k.line, line);
    ta.value = swapped !== null ? swapped : insertLine(ta.value, line, k.c.section);
    if (k.key) { byUnit[k.key] = line; }
    k.line = line;
    $("draftnote").textContent = "Composing: " + line;
    listChoices(null); drawOptions(); forceHighlight();
  }
  function forceWordLabel(w) {
    return forceIsUnit(w) ? "add " + w + " to the force" + (placements[step][w] ? " (" + (placements[step][w][0] || placements[step][w][1] || "") + ")" : "") : "add target " + w;
  }
  function forceNote() {
    var f = composing.force, most = (R.force_most || {})[f.verb];
    return el("p", { "class": "forcenote" }, ["Offered: units that may act with " + f.units.join(", ") +
      " in one force (each pair checked by the referee" + (forceWhole() ? ", and the room where it ends" : "") + ")" + (most ? ", " + most + " at most" : "") +
      (f.more.length ? ", and more targets of the kind" : "") +
      ((f.pals || []).length ? ", or a unit with no such line of its own that the rules let join this one (each line checked by the referee)" : "") +
      ". What holds only for the whole " + (forceWhole() ? "file (an allowance shared with other lines)" : "force (room where it ends, an allowance shared with other lines)") + " is judged by referee validate."]);
  }
  function forcePlace(w) {  /* where a unit or a target is now */
    var p = placements[step][w];
    return p ? p[0] || null : null;
  }
  function forcePoint(w) {  /* a counter pointed at while composing a force: it joins if it may, else the
    first unit or target of its place that may */
    if (!composing || composing.c.compose !== "force" || !w) { return false; }
    var cands = composeCandidates(), at = forcePlace(w);
    var x = cands.indexOf(w) >= 0 ? w : cands.filter(function (v) { return at && forcePlace(v) === at; })[0];
    if (!x) { return false; }
    composeAdd(x);
    return true;
  }
  function drawForceMarks(g) {  /* each place with units or targets that may join: "+n" */
    var by = {};
    composeCandidates().forEach(function (w) { var p = forcePlace(w); if (p && B.places[p]) { (by[p] = by[p] || []).push(w); } });
    Object.keys(by).sort().forEach(function (p) {
      var q = B.places[p], ws = by[p], label = ws.map(forceWordLabel).join("; ");
      var og = sv("g", { "class": "opt compose force", "data-place": p, "data-word": ws[0], tabindex: "0", role: "button", "aria-label": label });
      var t = sv("title"); t.textContent = composeLine() + "\n" + ws.map(forceWordLabel).join("\n"); og.appendChild(t);
      var cx = q[0] - size * 0.85, cy = q[1];  /* beside the stack: its count is above it */
      og.appendChild(sv("circle", { cx: cx, cy: cy, r: Math.max(8, size * 0.3) }));
      var lab = sv("text", { x: cx, y: cy + 4 }); lab.textContent = "+" + ws.length; og.appendChild(lab);
      og.addEventListener("click", function (e) { if (moved > 4) { return; } e.stopPropagation(); composeAdd(ws[0]); });
      g.appendChild(og);
    });
  }
  function forceHighlight() {  /* the force's units outlined, the ones that may join dashed */
    var f = composing && composing.c.compose === "force" ? composing.force : null, cands = f ? composeCandidates() : [];
    document.querySelectorAll("#units .counter").forEach(function (c) {
      var u = c.getAttribute("data-unit");
      c.classList.toggle("inforce", !!f && f.units.indexOf(u) >= 0);
      c.classList.toggle("mayjoin", cands.indexOf(u) >= 0);
    });
  }
  function listChoices(only) {
    var box = $("choices"); clear(box);
    if (composing) { listCompose(box); return; }
    if (!picked) { return; }
    var cs = choicesOf(picked).filter(function (c) { return !only || c.at === only; });
    cs = cs.filter(function (c) { return c.kind !== "move"; }).concat(cs.filter(function (c) { return c.kind === "move"; }));
    if (only) { box.appendChild(el("p", {}, ["At " + only + ":"])); }
    if (!cs.length) { box.appendChild(el("p", {}, ["No order to point at for this unit here; the lines above say why."])); }
    allowanceNotes(picked).forEach(function (t) { box.appendChild(el("p", { "class": "allowance" }, [t])); });
    cs.slice(0, 60).forEach(function (c) {
      var taken = takenBy(c);
      var b = el("button", { type: "button", "class": "choice", role: "listitem", "data-order": c.order,
        title: taken.length ? "already in this draft: " + taken.join(", ") : "" }, [optTitle(c)]);
      if (taken.length) { b.disabled = true; }
      b.onclick = function () { choose(picked, c); };
      b.onmouseenter = function () { showPath(placements[step][picked] ? B.places[placements[step][picked][0]] : null, c); };
      box.appendChild(b);
    });
    if (cs.length > 60) { box.appendChild(el("p", {}, [(cs.length - 60) + " more: point at a marked place on the map."])); }
  }
  function ownUnit(u) { var info = D.units[u]; return !!R && !!info && info.side === R.side; }
  function pick(u) {  /* u's lines and choices; a unit the options do not list (one of the side's,
    clicked on the map) is said to have none, and nothing of another unit stays offered */
    if (composing && composing.u !== u) { composing = null; }
    forceHighlight();
    picked = u && R.units[u] ? u : null;
    $("unitpick").value = picked || "";
    var box = $("unitlines"); clear(box);
    if (picked) { R.units[picked].lines.forEach(function (l) { box.appendChild(el("p", { "class": "optline" }, [l])); }); }
    else if (u) { box.appendChild(el("p", { "class": "optline", id: "noorders" }, [u + ": no orders for this unit at this step."])); }
    listChoices(null); drawOptions();
    document.querySelectorAll("#units .counter").forEach(function (c) {
      c.classList.toggle("hl", c.getAttribute("data-unit") === picked);
    });
  }
  function frameUnit(u) {  /* the map shows the unit and every place its options mark */
    if (!u || !R.units[u]) { return; }
    var pts = [];
    function add(p) { if (B.places[p]) { pts.push(B.places[p]); } }
    if (placements[step][u]) { add(placements[step][u][0]); }
    choicesOf(u).forEach(function (c) { add(c.at); });
    Object.keys(R.units[u].marks || {}).forEach(add);
    frameOn(pts, placements[step][u] ? B.places[placements[step][u][0]] : null);
  }
  function frameOn(pts, at) {  /* the map framed on the points ``pts`` (board units), at most
    twice the board's scale, with a margin of a hex and a half; where a mark would not have
    room for its least size at that scale (a mark on a stack's corner beside a marked place),
    closer in, down to a margin of a mark's size, as far as every point stays in the frame; where
    its marks are too many too close to read at that scale (a ship's every sea hex), closer in
    around ``at`` (the unit): the farther ones are a pan away */
    if (!pts.length) { return; }
    var xs = pts.map(function (q) { return q[0]; }), ys = pts.map(function (q) { return q[1]; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    function fits(pad, screen) {  /* the zoom that frames the points with a margin, in board units or CSS px */
      var w = vp.clientWidth - 2 * screen, h = vp.clientHeight - 2 * screen;
      return Math.min(w / (x1 - x0 + 2 * pad), h / (y1 - y0 + 2 * pad), 2);
    }
    var k = fits(B.hex_width * 1.5, 0), need = roomZoom();
    if (k < need) { k = Math.max(k, Math.min(need, fits(0, markMin() + 4))); }
    var cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, near = denseZoom();
    if (near > k && at) { k = Math.min(near, 2); cx = at[0]; cy = at[1]; }
    view.k = k; view.x = vp.clientWidth / 2 - k * onBoard(cx, vp.clientWidth / k, B.width);
    view.y = vp.clientHeight / 2 - k * onBoard(cy, vp.clientHeight / k, B.height);
    apply();
  }
  function onBoard(c, span, size) {  /* a frame's centre moved so the frame stays on the board where
    the board fills it (a unit at the board's edge: the naval module's Ak-Mechet left a third of
    the map empty), else so the whole board stays in it; what the frame holds stays in it */
    var a = span / 2, b = size - span / 2;
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }
  function frameForce() {  /* once a force is being composed, the map frames the force's units,
    where its line ends (the chosen line's place: a move's destination, not the first place of
    its path; an attack's target, and the targets added) and the "+n" marks of the units that
    may join it, not every place the first unit could go */
    var f = composing && composing.c.compose === "force" ? composing.force : null;
    if (!f || framedForce === composing) { return; }
    framedForce = composing;
    var places = f.units.concat(f.targets).map(forcePlace).concat([f.end]);
    var pts = places.filter(function (p) { return p && B.places[p]; }).map(function (p) { return B.places[p]; });
    markDiscs.forEach(function (m) { pts.push([m.x, m.y]); });
    frameOn(pts, pts[0] || null);
  }
  function markMin() { return phoneWide && phoneWide.matches ? MARK_MIN_PHONE : MARK_MIN; }  /* CSS px, a mark's least radius */
  function rooms() { return markDiscs.map(function (m) { return m.room; }).filter(isFinite).sort(function (a, b) { return a - b; }); }
  function denseZoom() {  /* the least zoom at which half the marks have room for their least size */
    var r = rooms();
    return r.length ? 2 * markMin() / r[Math.floor(r.length / 2)] : 0;
  }
  function roomZoom() {  /* the least zoom at which every mark has room for its least size */
    var r = rooms();
    return r.length ? 2 * markMin() / r[0] : 0;
  }
  function drawAnswers() {
    var box = $("answers"); clear(box);
    R.answers.forEach(function (a) {
      box.appendChild(el("p", {}, [a.id + " [" + a.rule + "]: " + a.prompt]));
      a.options.forEach(function (o) {
        var b = el("button", { type: "button", "class": "choice answer", "data-order": "answer " + a.id + " " + o }, [o]);
        b.onclick = function () { answerAt(a, o); };
        box.appendChild(b);
      });
    });
  }
  function drawSideChoices() {  /* the side's orders that no unit gives (options format 3) */
    var box = $("sidechoices"); clear(box);
    var cs = (R.side_choices || []).filter(function (c) { return draftAllows("side", c); });
    if (!cs.length) { return; }
    box.appendChild(el("p", {}, ["Orders of your side:"]));
    cs.forEach(function (c) {
      var taken = takenBy(c);
      var b = el("button", { type: "button", "class": "choice side", role: "listitem", "data-order": c.order,
        title: taken.length ? "already in this draft: " + taken.join(", ") : "" }, [optTitle(c)]);
      if (taken.length) { b.disabled = true; }
      b.onclick = function () { choose("side", c); };
      box.appendChild(b);
    });
  }
  function resetDraft() {
    used = {}; byUnit = {}; behind = {}; composing = null;
    $("draft").value = draftHead();
    $("draftnote").textContent = "";
    pick(picked); drawSideChoices();
  }
  if (R) {
    document.documentElement.classList.add("drafting");  /* at phone width the map stays on screen above the orders (viewer.css) */
    var sel = $("unitpick");
    sel.appendChild(el("option", { value: "" }, [Object.keys(R.units).length ? "(choose a unit, or click one on the map)" : "(no unit has an order to point at)"]));
    Object.keys(R.units).sort().forEach(function (u) {
      var info = D.units[u] || {}, p = placements[D.steps.length - 1][u];
      sel.appendChild(el("option", { value: u }, [u + (info.name ? " \u2014 " + info.name : "") + (p && (p[0] || p[1]) ? " (" + (p[0] || p[1]) + ")" : "")]));
    });
    sel.onchange = function () { pick(sel.value); frameUnit(sel.value); };
    drawAnswers(); drawSideChoices();
    $("draft").value = draftHead();
    $("copydraft").onclick = function () {
      var ta = $("draft");
      function done() { $("draftnote").textContent = "Copied."; }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(ta.value).then(done, function () { ta.select(); document.execCommand("copy"); done(); });
      } else { ta.select(); document.execCommand("copy"); done(); }
    };
    $("savedraft").onclick = function () {
      var a = el("a", { href: URL.createObjectURL(new Blob([$("draft").value], { type: "text/plain" })), download: "orders.txt" });
      document.body.appendChild(a); a.click(); document.body.removeChild(a);
      $("draftnote").textContent = "Saved orders.txt: sign it, then send it.";
    };
    $("cleardraft").onclick = resetDraft;
    $("tolatest").onclick = function () { go(D.steps.length - 1); region(); };
    $("optmarks").addEventListener("click", function (e) {
      if (moved > 4) { return; }
      var o = e.target.closest(".opt");
      if (o && picked && o.getAttribute("data-place")) { e.stopPropagation(); clickPlace(o.getAttribute("data-place")); }
    });
  }

  var m = /step=(\d+)/.exec(location.hash);
  go(m ? parseInt(m[1], 10) - 1 : D.steps.length - 1);
  region();
  /* a phone's browser resizes the page as its address bar shows and hides while the page
     scrolls: only a new width frames the map again (the unit picked, else the region) */
  var lastWidth = vp.clientWidth;
  window.addEventListener("resize", function () {
    if (vp.clientWidth === lastWidth) { sizeMarks(); return; }
    lastWidth = vp.clientWidth;
    if (picked && step === D.steps.length - 1) { frameUnit(picked); } else { region(); }
    sizeMarks();
  });
  window.refereeViewer = { go: go, step: function () { return step; }, view: view, data: D,
    pick: function (u) { pick(u); }, choicesOf: function (u) { return choicesOf(u); },
    endOf: function (u) { return endOf(u); }, wordsOf: wordsOf };
}());
