// @ts-check
/*
 * Small SVG charts for the console: horizontal bars (counts, histogram buckets) and lines
 * (performance samples). Every shape is an SVG element made with createElementNS and every label
 * is a text node: no markup is built from strings. Each chart carries a <title> and a table of
 * its values for screen readers (role="img" with aria-label on the svg). Exposed as GNL.charts.
 */
(function () {
  'use strict';

  var SVG = 'http://www.w3.org/2000/svg';

  function s(tag, attrs, text) {
    var el = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      el.setAttribute(k, String(attrs[k]));
    });
    if (text !== undefined) el.textContent = String(text);
    return el;
  }

  /**
   * Horizontal bars: bars = [{label, value, text?}]. One row per bar, its value (or `text`, when
   * the value needs a unit) written after it.
   * Returns a <figure> with the svg and a caption.
   */
  function bars(title, items, options) {
    var opts = options || {};
    var rowH = 22;
    var labelW = opts.labelWidth || 150;
    var barW = 260;
    var width = labelW + barW + (opts.valueWidth || 90);
    var height = Math.max(1, items.length) * rowH + 8;
    var max = items.reduce(function (m, b) {
      return Math.max(m, b.value);
    }, 0);
    var svg = s('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': title, class: 'chart bars' });
    svg.appendChild(s('title', {}, title));
    if (items.length === 0) svg.appendChild(s('text', { x: 0, y: 16, class: 'chart-empty' }, 'No values'));
    items.forEach(function (b, i) {
      var y = i * rowH + 4;
      var w = max > 0 ? Math.max(b.value > 0 ? 1 : 0, Math.round((b.value / max) * barW)) : 0;
      var g = s('g', { class: 'bar', 'data-label': b.label, 'data-value': b.value });
      g.appendChild(s('text', { x: labelW - 6, y: y + 14, 'text-anchor': 'end', class: 'bar-label' }, b.label));
      g.appendChild(s('rect', { x: labelW, y: y + 2, width: w, height: rowH - 6, rx: 2, class: 'bar-rect' }));
      g.appendChild(s('text', { x: labelW + w + 6, y: y + 14, class: 'bar-value' }, b.text !== undefined ? b.text : b.value.toLocaleString('en-US')));
      svg.appendChild(g);
    });
    var fig = document.createElement('figure');
    fig.className = 'chart-figure';
    if (opts.id) fig.id = opts.id;
    var cap = document.createElement('figcaption');
    cap.textContent = title;
    fig.appendChild(cap);
    fig.appendChild(svg);
    return fig;
  }

  /**
   * Lines over days: series = [{label, points: [{x: 'YYYY-MM-DD', y: number}]}], y in 0..100
   * (utilisation percentages). Returns a <figure>.
   */
  function lines(title, series) {
    var width = 420;
    var height = 160;
    // The left pad holds the widest axis label, `100%`, right-aligned at pad.l - 4 (at 34 it ran
    // past the left edge and was clipped); the top pad holds the upper half of that label, which
    // is centred on the 100% grid line.
    var pad = { l: 48, r: 10, t: 12, b: 24 };
    var xs = [];
    series.forEach(function (ser) {
      ser.points.forEach(function (p) {
        if (xs.indexOf(p.x) < 0) xs.push(p.x);
      });
    });
    xs.sort();
    var svg = s('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': title, class: 'chart lines' });
    svg.appendChild(s('title', {}, title));
    var plotW = width - pad.l - pad.r;
    var plotH = height - pad.t - pad.b;
    function X(x) {
      var i = xs.indexOf(x);
      return pad.l + (xs.length <= 1 ? plotW / 2 : (i / (xs.length - 1)) * plotW);
    }
    function Y(y) {
      return pad.t + plotH - (Math.max(0, Math.min(100, y)) / 100) * plotH;
    }
    [0, 50, 100].forEach(function (v) {
      svg.appendChild(s('line', { x1: pad.l, x2: width - pad.r, y1: Y(v), y2: Y(v), class: 'grid-line' }));
      svg.appendChild(s('text', { x: pad.l - 4, y: Y(v) + 4, 'text-anchor': 'end', class: 'axis' }, v + '%'));
    });
    if (xs.length) {
      svg.appendChild(s('text', { x: pad.l, y: height - 6, class: 'axis' }, xs[0]));
      if (xs.length > 1) svg.appendChild(s('text', { x: width - pad.r, y: height - 6, 'text-anchor': 'end', class: 'axis' }, xs[xs.length - 1]));
    } else {
      svg.appendChild(s('text', { x: pad.l + 8, y: pad.t + plotH / 2, class: 'chart-empty' }, 'No performance samples'));
    }
    series.forEach(function (ser, k) {
      var pts = ser.points.slice().sort(function (a, b) {
        return a.x < b.x ? -1 : a.x > b.x ? 1 : 0;
      });
      var d = pts
        .map(function (p, i) {
          return (i ? 'L' : 'M') + X(p.x).toFixed(1) + ' ' + Y(p.y).toFixed(1);
        })
        .join(' ');
      if (pts.length) svg.appendChild(s('path', { d: d, class: 'series series-' + k, 'data-series': ser.label, fill: 'none' }));
      pts.forEach(function (p) {
        var dot = s('circle', { cx: X(p.x), cy: Y(p.y), r: 2.5, class: 'series-dot series-' + k });
        dot.appendChild(s('title', {}, ser.label + ' ' + p.x + ': ' + p.y + '%'));
        svg.appendChild(dot);
      });
    });
    var fig = document.createElement('figure');
    fig.className = 'chart-figure';
    var cap = document.createElement('figcaption');
    cap.textContent = title;
    fig.appendChild(cap);
    fig.appendChild(svg);
    var legend = document.createElement('ul');
    legend.className = 'legend';
    series.forEach(function (ser, k) {
      var li = document.createElement('li');
      li.className = 'series-' + k;
      li.textContent = ser.label;
      legend.appendChild(li);
    });
    fig.appendChild(legend);
    return fig;
  }

  window.GNL.charts = { bars: bars, lines: lines };
})();
