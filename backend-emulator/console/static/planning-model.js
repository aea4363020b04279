// @ts-check
/*
 * What the console's planning views (groups, preference sets, reports: planning.js) compute
 * without drawing: sizes in GiB, a report summary's histograms, utilisation and OS breakdown as
 * chart series, its findings as table rows, a preference set's fields as label/value rows (enum
 * values in words, from constants.js), the REST requests of a group's assets, and paging over
 * page tokens. Nothing here touches the page, so tests run it in Node (tests/backend-emulator/
 * console/planning-model.test.ts). Exposed as GNL.planning.
 */
(function () {
  'use strict';

  var G = window.GNL;
  var GIB = 1024 * 1024 * 1024;

  function n(value) {
    var v = Number(value === undefined || value === null || value === '' ? 0 : value);
    return isFinite(v) ? v : 0;
  }

  /** Bytes (an int64 string or a number) as GiB, one decimal at most: `1.5 GiB`, `1,820 GiB`. */
  function gib(bytes) {
    return (n(bytes) / GIB).toLocaleString('en-US', { maximumFractionDigits: 1 }) + ' GiB';
  }

  /** A histogram bucket's label: `< 2`, `2–4`, `≥ 128` (lower bound inclusive, upper exclusive); byte bounds in GiB. */
  function bucketLabel(bucket, bytes) {
    var show = function (v) {
      return (bytes ? n(v) / GIB : n(v)).toLocaleString('en-US') + (bytes ? ' GiB' : '');
    };
    if (bucket.upperBound === undefined || bucket.upperBound === null) return '≥ ' + show(bucket.lowerBound);
    if (bucket.lowerBound === undefined || bucket.lowerBound === null || n(bucket.lowerBound) === 0) return '< ' + show(bucket.upperBound);
    return (bytes ? (n(bucket.lowerBound) / GIB).toLocaleString('en-US') : G.num(bucket.lowerBound)) + '–' + show(bucket.upperBound);
  }

  /** A ReportSummaryHistogramChartData as bars, one per bucket (empty buckets too: the shape of the estate). */
  function histogramBars(histogram, bytes) {
    return ((histogram && histogram.buckets) || []).map(function (b) {
      return { label: bucketLabel(b, bytes), value: n(b.count) };
    });
  }

  /** A ReportSummaryUtilizationChartData ({used, free} bytes) as two bars in GiB, each written with its share. */
  function utilisationBars(chart) {
    var used = n(chart && chart.used);
    var free = n(chart && chart.free);
    var all = used + free;
    function bar(label, bytes) {
      var value = Math.round((bytes / GIB) * 10) / 10;
      return { label: label, value: value, text: gib(bytes) + (all > 0 ? ' (' + Math.round((bytes / all) * 100) + '%)' : '') };
    }
    return [bar('Used', used), bar('Free', free)];
  }

  /** The OS breakdown (a ReportSummaryChartData of OsFamily labels) as bars, the families in words. */
  function osBars(chart) {
    return ((chart && chart.dataPoints) || []).map(function (p) {
      return { label: G.osFamilyName(p.label) || 'Unknown', value: n(p.value) };
    });
  }

  /** A ReportSummaryAssetAggregateStats' totals in one line: `5 assets · 31 cores · 122 GiB of memory · 1,820 GiB of storage`. */
  function totalsText(stats) {
    var s = stats || {};
    return [
      G.plural(n(s.totalAssets), 'asset'),
      G.plural(n(s.totalCores), 'core'),
      gib(s.totalMemoryBytes) + ' of memory',
      gib(s.totalStorageBytes) + ' of storage',
    ].join(' · ');
  }

  /**
   * The charts of a ReportSummaryAssetAggregateStats, in the order the report page draws them:
   * [{id, title, bars}] for the core, memory and storage histograms, memory and storage
   * utilisation, and the OS breakdown.
   */
  function reportCharts(stats) {
    var s = stats || {};
    return [
      { id: 'cores', title: 'Cores per machine', bars: histogramBars(s.coreCountHistogram, false) },
      { id: 'memory', title: 'Memory per machine', bars: histogramBars(s.memoryBytesHistogram, true) },
      { id: 'storage', title: 'Storage per machine', bars: histogramBars(s.storageBytesHistogram, true) },
      { id: 'memory-use', title: 'Memory utilisation', bars: utilisationBars(s.memoryUtilizationChart) },
      { id: 'storage-use', title: 'Storage utilisation', bars: utilisationBars(s.storageUtilizationChart) },
      { id: 'os', title: 'Operating systems', bars: osBars(s.operatingSystem) },
    ];
  }

  /**
   * One row per group and preference set of a ReportSummary: who, where the sizing puts the
   * group's assets (region, how many allocated of how many, by machine series).
   */
  function findingRows(summary) {
    var rows = [];
    ((summary && summary.groupFindings) || []).forEach(function (g) {
      var assets = n(g.assetAggregateStats && g.assetAggregateStats.totalAssets);
      (g.preferenceSetFindings || []).forEach(function (f) {
        var m = f.machineFinding;
        rows.push({
          group: g.group || '',
          groupTitle: g.displayName || G.lastSegment(g.group || ''),
          preferenceSet: (f.preferenceSet && f.preferenceSet.name) || '',
          preferenceSetTitle: f.displayName || G.lastSegment((f.preferenceSet && f.preferenceSet.name) || ''),
          region: f.preferredRegion || '',
          allocated: m ? G.num(n(m.allocatedAssetCount)) + ' of ' + G.plural(assets, 'asset') : 'not sized (no machine finding)',
          series: ((m && m.machineSeriesAllocations) || [])
            .map(function (a) {
              return ((a.machineSeries && a.machineSeries.code) || '?') + ' ' + G.num(n(a.allocatedAssetCount));
            })
            .join(', '),
        });
      });
    });
    return rows;
  }

  /** `sizingOptimizationStrategy` -> `Sizing optimization strategy`. */
  function fieldLabel(field) {
    var words = String(field)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** An enum value in words (constants.js, from the PreferenceSet schema); any other value as it is. */
  function enumWord(value) {
    var words = G.constants.preferenceWords;
    return Object.prototype.hasOwnProperty.call(words, value) ? words[value] : String(value);
  }

  function valueText(value) {
    if (Array.isArray(value)) {
      return value
        .map(function (item) {
          if (item && typeof item === 'object') {
            var keys = Object.keys(item);
            return keys.length === 1 ? valueText(item[keys[0]]) : JSON.stringify(item);
          }
          return valueText(item);
        })
        .join(', ');
    }
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    if (typeof value === 'string') return enumWord(value);
    return String(value);
  }

  /**
   * A preference set's fields as [label, text] rows, nested messages walked depth first with
   * their path in the label (`Compute engine preferences › Machine preferences › Allowed machine
   * series`), enum values in words, lists joined. Fields the set leaves out have no row.
   */
  function preferenceRows(object, path) {
    var rows = [];
    Object.keys(object || {}).forEach(function (k) {
      var v = object[k];
      var label = (path ? path + ' › ' : '') + fieldLabel(k);
      if (v === undefined || v === null) return;
      if (typeof v === 'object' && !Array.isArray(v)) rows = rows.concat(preferenceRows(v, label));
      else rows.push([label, valueText(v)]);
    });
    return rows;
  }

  /** The assets.list query of a group's members (Google's spelling of the filter is not public: docs/migration-center.md). */
  function groupAssetsQuery(group, pageSize, pageToken) {
    return { filter: 'assignedGroups:"' + group + '"', pageSize: pageSize, pageToken: pageToken || '' };
  }

  /** The assets:aggregateValues body that counts a group's members. */
  function groupCountBody(group) {
    return { aggregations: [{ field: 'name', count: {} }], filter: 'assignedGroups:"' + group + '"' };
  }

  /**
   * Paging over page tokens, as the address keeps it (`page=N`): `tokens[i]` is the token of page
   * i ('' for the first). `at(tokens, page)` is the page shown (clamped to the pages seen) and its
   * token; `learn(tokens, page, next)` the tokens once page `page` answered `next`.
   */
  function pageAt(tokens, requested) {
    var page = Math.max(0, Math.min(tokens.length - 1, parseInt(String(requested || '0'), 10) || 0));
    return { page: page, token: tokens[page] };
  }
  function learnPage(tokens, page, nextPageToken) {
    var out = tokens.slice(0, page + 1);
    if (nextPageToken) out.push(nextPageToken);
    return out;
  }

  G.planning = {
    gib: gib,
    bucketLabel: bucketLabel,
    histogramBars: histogramBars,
    utilisationBars: utilisationBars,
    osBars: osBars,
    totalsText: totalsText,
    reportCharts: reportCharts,
    findingRows: findingRows,
    fieldLabel: fieldLabel,
    enumWord: enumWord,
    preferenceRows: preferenceRows,
    groupAssetsQuery: groupAssetsQuery,
    groupCountBody: groupCountBody,
    pageAt: pageAt,
    learnPage: learnPage,
  };
})();
