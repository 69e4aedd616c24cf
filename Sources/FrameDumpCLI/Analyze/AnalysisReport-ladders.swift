/// The report's ladder diagrams: every kept connection, reachable page by page, each with an
/// overview of its whole span and a ladder that pages through its kept rows or zooms to one
/// window of time.
///
/// The connections' figures and rows are one inline JSON block; a small inline script draws the
/// page in view (``connectionsPerPage`` connections) as SVG, so the file grows by a few dozen
/// bytes per row, not by an SVG per frame. Navigation: the ‹ › buttons, a connection number,
/// or the page's address: `#page=3`, `#conn=17`. Nothing is loaded from outside.
extension AnalysisReport {
    /// Connections drawn per page.
    static let connectionsPerPage = 10
    /// Ladder rows drawn at once per connection (the rest by its ‹ › buttons or its overview).
    static let rowsPerLadderPage = 40
    /// The most rows and overview windows the page holds over all connections: connections past
    /// it are listed (number, ends, frames, who closed) without their overview and ladder, so the
    /// file stays a few MB however many connections the capture has.
    static let maxDrawnItems = 60_000
    /// The marks as the data block numbers them (the script's `marks`).
    private static let marks: [LadderEntry.Mark] = [.none, .missed, .late, .retransmission, .premature, .duplicate, .gap, .fin, .reset]

    /// The ladders section: the data block, the page's frame and its script.
    static func ladders(_ result: AnalysisResult, origin: Int64) -> String {
        let drawn = result.connections.filter { $0.frames > 0 }
        let markNames = marks.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        var data: [UInt8] = Array("{\"perPage\":\(connectionsPerPage),\"rowsPerPage\":\(rowsPerLadderPage),\"marks\":[\(markNames)],\"conns\":[".utf8)
        var itemsLeft = maxDrawnItems, listedOnly = 0
        for (index, connection) in drawn.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            let cost = connection.ladder.keptCount + connection.ladder.counts.count { $0.clientToServer + $0.serverToClient > 0 }
            let draws = cost <= itemsLeft
            if draws { itemsLeft -= cost } else { listedOnly += 1 }
            append(connection, origin: origin, drawing: draws, to: &data)
        }
        data.append(contentsOf: "]}".utf8)
        var section = "<div id=\"ladders\"><p class=\"note\">\(counted(drawn.count, "connection")) with frames"
        if listedOnly > 0 {
            section += "; the last \(listedOnly) are listed without their diagrams (the page holds at most \(maxDrawnItems) rows and windows)"
        }
        section += ". "
        section += "Click a window of a connection's overview to see its frames; ‹ › page.</p>"
        section += "<div class=\"pager\"><button type=\"button\" data-go=\"prev\">‹ page</button> <span id=\"page-of\"></span> "
        section += "<button type=\"button\" data-go=\"next\">page ›</button> "
        section += "<label>connection <input id=\"conn-number\" type=\"number\" min=\"1\" size=\"6\"></label> "
        section += "<button type=\"button\" data-go=\"conn\">show</button></div><div id=\"ladder-page\"></div></div>\n"
        // `<` (only ever inside a string) as \u003c: a label cannot close the script element.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(data.count)
        for byte in data {
            if byte == UInt8(ascii: "<") { escaped.append(contentsOf: "\\u003c".utf8) } else { escaped.append(byte) }
        }
        section += "<script type=\"application/json\" id=\"ladder-data\">" + String(decoding: escaped, as: UTF8.self) + "</script>\n"
        section += "<script>\n" + script + "</script>\n"
        return section
    }

    /// `{"n":conn,"c":client,"s":server,"t":type,"f":frames,"by":who closed,"x":rows not kept,
    /// "st":first window's start,"w":window width,"h":[[window,c2s,s2c,marked]…],"r":[[time,dir,mark,label]…]}`
    /// (without `st` … `r` when not `drawing`); times in seconds since the capture's first packet,
    /// dir 0 client → server, mark an index of ``marks``, only windows with entries in `h`.
    private static func append(_ connection: ConnectionAnalysis, origin: Int64, drawing: Bool, to data: inout [UInt8]) {
        let ladder = connection.ladder
        data.append(contentsOf: "{\"n\":\(connection.number),\"c\":".utf8)
        JSONString.append("\(connection.client)", to: &data)
        data.append(contentsOf: ",\"s\":".utf8)
        JSONString.append("\(connection.server)", to: &data)
        data.append(contentsOf: ",\"t\":".utf8)
        if let type = connection.sessionType { JSONString.append(type, to: &data) } else { data.append(contentsOf: "null".utf8) }
        let closedBy = connection.endedBy.map { $0 == .clientToServer ? "client" : "server" } ?? "open"
        data.append(contentsOf: ",\"f\":\(connection.frames),\"by\":\"\(closedBy)\",\"x\":\(ladder.rowsNotKept)".utf8)
        guard drawing else {
            data.append(UInt8(ascii: "}"))
            return
        }
        data.append(contentsOf: ",\"st\":\(Seconds((ladder.start ?? origin) - origin).json),\"w\":\(Seconds(ladder.width).json),\"h\":[".utf8)
        var first = true
        for (index, count) in ladder.counts.enumerated() where count.clientToServer + count.serverToClient > 0 {
            data.append(contentsOf: "\(first ? "" : ",")[\(index),\(count.clientToServer),\(count.serverToClient),\(count.marked)]".utf8)
            first = false
        }
        data.append(contentsOf: "],\"r\":[".utf8)
        for (index, entry) in ladder.entries.enumerated() {
            let mark = marks.firstIndex(of: entry.mark) ?? 0
            data.append(contentsOf: "\(index > 0 ? "," : "")[\(Seconds(entry.time.nanoseconds - origin).json),\(entry.direction == .clientToServer ? 0 : 1),\(mark),".utf8)
            JSONString.append(entry.label, to: &data)
            data.append(UInt8(ascii: "]"))
        }
        data.append(contentsOf: "]}".utf8)
    }

    /// Draws the page in view from the data block: a connection's heading, its overview (a bar
    /// per window: frames, marked ones red) and its ladder (rows with arrows, long pauses as a
    /// break with their length), with the marks' colours of the static diagrams.
    private static let script = #"""
    (function () {
      var data = JSON.parse(document.getElementById("ladder-data").textContent);
      var conns = data.conns, perPage = data.perPage, rowsPerPage = data.rowsPerPage;
      var page = 0, rowStart = {};
      var marks = data.marks;
      var colours = {missed: "#cf222e", premature: "#cf222e", duplicate: "#cf222e", reset: "#cf222e",
                     late: "#d4a017", gap: "#d4a017", retransmission: "#8250df", fin: "#222"};
      function esc(text) {
        return String(text).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c]; });
      }
      function seconds(s) {
        var a = Math.abs(s);
        return a >= 1 ? s.toFixed(3) + " s" : a >= 0.001 ? (s * 1000).toFixed(1) + " ms" : Math.round(s * 1e6) + " \u00b5s";
      }
      function colour(row) {
        if (colours[marks[row[2]]]) return colours[marks[row[2]]];
        return row[3].indexOf("msg") === 0 ? "#1f6feb" : row[3].indexOf("ack") === 0 ? "#1a7f37" : "#777";
      }
      // Written "<" + "svg", so that the page's source holds only the elements drawn (a count of
      // the rendered page's diagrams does not find this script's text).
      function open(kind, width, height) {
        return "<" + 'svg class="' + kind + '" width="' + width + '" height="' + height + '" viewBox="0 0 ' + width + ' ' + height + '" xmlns="http://www.w3.org/2000/svg">';
      }
      function overview(c) {
        var width = 620, height = 46, n = 1, most = 1, svg = "";
        c.h.forEach(function (h) { most = Math.max(most, h[1] + h[2]); n = Math.max(n, h[0] + 1); });
        var bar = (width - 20) / 64;
        svg += open("overview", width, height);
        svg += '<text x="10" y="11">' + seconds(c.st) + ' \u2026 ' + seconds(c.st + c.w * n) + ', windows of ' + seconds(c.w) + '</text>';
        c.h.forEach(function (h) {
          var total = h[1] + h[2], i = h[0];
          var tall = Math.max(2, Math.sqrt(total / most) * 28);
          var x = 10 + i * bar;
          svg += '<rect data-window="' + i + '" x="' + x.toFixed(1) + '" y="' + (42 - tall).toFixed(1) + '" width="' + (bar - 1).toFixed(1) + '" height="' + tall.toFixed(1) +
            '" fill="' + (h[3] ? "#cf222e" : "#4a7bd0") + '" style="cursor:pointer"><title>' + total + ' (' + h[3] + ' marked)</title></rect>';
        });
        return svg + '</svg>';
      }
      function ladder(c) {
        var start = rowStart[c.n] || 0, rows = c.r.slice(start, start + rowsPerPage);
        var width = 620, clientX = 110, serverX = 510, rowHeight = 18, lines = [];
        var span = rows.length ? rows[rows.length - 1][0] - rows[0][0] : 0, previous = null;
        rows.forEach(function (row) {
          if (previous !== null && row[0] - previous > Math.max(span / 10, 1e-9)) lines.push({pause: row[0] - previous});
          lines.push({row: row});
          previous = row[0];
        });
        var height = 50 + lines.length * rowHeight + 20;
        var svg = open("ladder", width, height);
        svg += '<defs><marker id="a' + c.n + '" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>';
        svg += '<text x="10" y="14">rows ' + (rows.length ? start + 1 : 0) + '\u2013' + (start + rows.length) + ' of ' + c.r.length + ' kept' +
          (c.x ? ' (' + c.x + ' more counted in the overview, not kept)' : '') + '</text>';
        svg += '<text x="' + (clientX - 20) + '" y="34">client</text><text x="' + (serverX - 20) + '" y="34">server</text>';
        svg += '<line x1="' + clientX + '" y1="40" x2="' + clientX + '" y2="' + (height - 10) + '" stroke="#888"/>';
        svg += '<line x1="' + serverX + '" y1="40" x2="' + serverX + '" y2="' + (height - 10) + '" stroke="#888"/>';
        lines.forEach(function (line, i) {
          var y = 52 + i * rowHeight;
          if (line.pause !== undefined) {
            svg += '<text x="' + ((clientX + serverX) / 2 - 30) + '" y="' + (y + 4) + '" fill="#888">\u22ef ' + seconds(line.pause) + ' \u22ef</text>';
            return;
          }
          var row = line.row, from = row[1] ? serverX : clientX, to = row[1] ? clientX : serverX, col = colour(row), mark = marks[row[2]];
          var label = (mark === "none" || mark === "fin" || mark === "reset") ? row[3] : row[3] + " (" + mark + ")";
          svg += '<text x="4" y="' + (y + 4) + '" fill="#888">' + seconds(row[0]) + '</text>';
          svg += '<line x1="' + from + '" y1="' + y + '" x2="' + to + '" y2="' + (y + 8) + '" stroke="' + col + '" stroke-width="1.5"' +
            (mark === "missed" ? ' stroke-dasharray="5 3"' : '') + ' marker-end="url(#a' + c.n + ')"/>';
          svg += '<text x="' + ((clientX + serverX) / 2 - 40) + '" y="' + (y + 2) + '" fill="' + col + '">' + esc(label) + '</text>';
        });
        return svg + '</svg>';
      }
      function block(c) {
        return '<div class="conn" id="conn-' + c.n + '" data-conn="' + c.n + '"><h3>conn ' + c.n + ': ' + esc(c.c) + ' \u2192 ' + esc(c.s) +
          (c.t ? ' (' + esc(c.t) + ')' : '') + ', ' + c.f + ' frames, closed by ' + c.by + '</h3>' +
          (c.r ? overview(c) + '<div><button type="button" data-rows="-1">\u2039 rows</button> <button type="button" data-rows="1">rows \u203a</button></div>' +
            ladder(c) : '<p class="note">not drawn: the page holds the diagrams of the connections before it</p>') + '</div>';
      }
      function show(p) {
        var pages = Math.max(1, Math.ceil(conns.length / perPage));
        page = Math.max(0, Math.min(pages - 1, p));
        document.getElementById("page-of").textContent = "page " + (page + 1) + " of " + pages;
        document.getElementById("ladder-page").innerHTML = conns.slice(page * perPage, (page + 1) * perPage).map(block).join("");
      }
      function find(n) {
        for (var i = 0; i < conns.length; i++) if (conns[i].n === n) return i;
        return -1;
      }
      function follow() {
        var match = /^#(page|conn)=(\d+)$/.exec(location.hash);
        if (match && match[1] === "page") { show(Number(match[2]) - 1); return; }
        var index = match ? find(Number(match[2])) : -1;
        show(index < 0 ? 0 : Math.floor(index / perPage));
        if (index >= 0) document.getElementById("conn-" + conns[index].n).scrollIntoView();
      }
      function redraw(n) {
        var node = document.getElementById("conn-" + n);
        node.outerHTML = block(conns[find(n)]);
      }
      document.getElementById("ladders").addEventListener("click", function (event) {
        var target = event.target, go = target.getAttribute("data-go");
        if (go === "prev" || go === "next") { location.hash = "page=" + (page + (go === "next" ? 2 : 0)); return; }
        if (go === "conn") { location.hash = "conn=" + document.getElementById("conn-number").value; return; }
        var holder = target.closest ? target.closest(".conn") : null;
        if (!holder) return;
        var n = Number(holder.getAttribute("data-conn")), c = conns[find(n)];
        if (!c.r) return;
        if (target.hasAttribute("data-rows")) {
          var next = (rowStart[n] || 0) + Number(target.getAttribute("data-rows")) * rowsPerPage;
          rowStart[n] = Math.max(0, Math.min(Math.max(0, c.r.length - 1), next));
        } else if (target.hasAttribute("data-window")) {
          var from = c.st + Number(target.getAttribute("data-window")) * c.w - 1e-9, at = 0;
          while (at < c.r.length && c.r[at][0] < from) at++;
          rowStart[n] = Math.min(at, Math.max(0, c.r.length - 1));
        } else {
          return;
        }
        redraw(n);
      });
      window.addEventListener("hashchange", follow);
      follow();
    })();

    """#
}
