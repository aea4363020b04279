// @ts-check
/*
 * The console's inventory views, all through the public REST API:
 *   #view=inventory&parent=P&name=&os=&power=&filter=&orderBy=   assets.list, one server page at a time
 *   #view=asset&name=ASSET                                        assets.get (FULL view)
 *   #view=summary&parent=P                                        assets:aggregateValues + sources.list
 * Filters and orderings use the indexed fields (docs/migration-center.md), so a page of 600,000
 * assets costs one index read; the browser never holds more than one page.
 */
(function () {
  'use strict';

  var G = window.GNL;
  var h = G.h;
  var $ = G.$;

  var PAGE_SIZE = 50;
  var EMPTY_STATE = 'The emulator holds no assets or import jobs yet: import an inventory (Import), or enter a project and a location, then Show.';
  var OS_FAMILIES = G.constants.osFamilies;
  var POWER_STATES = ['poweredOn', 'poweredOff', 'suspended'];
  // The default order is the resource name's, whose last segment is the asset id (a hash, or the
  // machine id): named so. The name users read is the VM name, ordered by the next one.
  var ORDERINGS = [
    ['', 'Asset id'],
    ['virtualMachineDetails.vmName', 'VM name'],
    ['virtualMachineDetails.coreCount desc', 'Cores, most first'],
    ['virtualMachineDetails.memoryMb desc', 'Memory, most first'],
    ['createTime desc', 'Newest first'],
  ];

  var shortOs = G.osFamilyName;

  /** A quoted filter value: the filter grammar's quotes and backslashes are not allowed inside. */
  function quoted(text) {
    return '"' + String(text).replace(/["\\]/g, '') + '"';
  }

  function filterOf(p) {
    var parts = [];
    if (p.get('name')) parts.push('virtualMachineDetails.vmName = ' + quoted('*' + p.get('name') + '*'));
    if (p.get('os')) parts.push('virtualMachineDetails.osFamily = ' + quoted(p.get('os')));
    if (p.get('power')) parts.push('virtualMachineDetails.powerState = ' + quoted(p.get('power')));
    if (p.get('filter')) parts.push('(' + p.get('filter') + ')');
    return parts.join(' AND ');
  }

  var parentControls = G.parentControls;
  var parentOf = G.parentFromForm;

  // ---------------------------------------------------------------- inventory

  var tokens = ['']; // page tokens of the pages seen, for Previous
  var listKey = '';
  var seq = 0;

  function fillSelect(select, values, label, allText) {
    if (select.options.length) return;
    select.appendChild(h('option', { value: '', text: allText }));
    values.forEach(function (v) {
      select.appendChild(h('option', { value: Array.isArray(v) ? v[0] : v, text: Array.isArray(v) ? v[1] : label(v) }));
    });
  }

  function writeInventory(extra) {
    var values = {
      parent: parentOf('inv'),
      name: $('inv-name').value.trim(),
      os: $('inv-os').value,
      power: $('inv-power').value,
      filter: $('inv-filter').value.trim(),
      orderBy: $('inv-order').value,
    };
    Object.keys(extra || {}).forEach(function (k) {
      values[k] = extra[k];
    });
    G.go('inventory', values);
  }

  G.views.inventory = function (p) {
    fillSelect($('inv-os'), OS_FAMILIES, shortOs, 'Any OS family');
    fillSelect($('inv-power'), POWER_STATES, String, 'Any power state');
    fillSelect($('inv-order'), ORDERINGS.slice(1), String, ORDERINGS[0][1]);
    $('inv-name').value = p.get('name') || '';
    $('inv-os').value = p.get('os') || '';
    $('inv-power').value = p.get('power') || '';
    $('inv-filter').value = p.get('filter') || '';
    $('inv-order').value = p.get('orderBy') || '';
    // Nothing of an earlier query stays on screen while this one is chosen or loaded.
    $('inv-range').textContent = '';
    $('inv-prev').disabled = true;
    $('inv-next').disabled = true;
    $('inventory').removeAttribute('data-query');
    var mine = ++seq;
    parentControls('inv', 'inventory', p, function () {
      writeInventory();
    }).then(function (hasParent) {
      if (mine !== seq) return;
      if (hasParent) listInventory(p, mine);
      else if (!p.get('parent') && !$('inv-project').value) {
        G.clear($('inventory').tBodies[0]).appendChild(h('tr', null, h('td', { colspan: 8, class: 'empty', text: EMPTY_STATE })));
      }
    });
  };

  function listInventory(p, mine) {
    G.rememberParent(p.get('parent'));
    var filter = filterOf(p);
    var key = p.get('parent') + '\n' + filter + '\n' + (p.get('orderBy') || '');
    if (key !== listKey) {
      listKey = key;
      tokens = [''];
    }
    var index = Math.max(0, Math.min(tokens.length - 1, parseInt(p.get('page') || '0', 10) || 0));
    var table = $('inventory');
    table.setAttribute('aria-busy', 'true');
    $('inv-range').textContent = 'Loading…';
    G.request('GET', G.v1alpha1(p.get('parent')) + '/assets', {
      pageSize: PAGE_SIZE,
      pageToken: tokens[index],
      filter: filter,
      orderBy: p.get('orderBy') || '',
    })
      .then(function (page) {
        if (mine !== seq) return;
        $('notice').hidden = true;
        var assets = page.assets || [];
        var tbody = G.clear(table.tBodies[0]);
        if (!assets.length) tbody.appendChild(h('tr', null, h('td', { colspan: 8, class: 'empty', text: 'No assets match.' })));
        assets.forEach(function (a) {
          var vm = a.virtualMachineDetails || {};
          tbody.appendChild(
            h(
              'tr',
              { class: 'asset', 'data-name': a.name },
              h(
                'td',
                null,
                h('a', {
                  class: 'asset-link',
                  href: '#' + new URLSearchParams({ view: 'asset', name: a.name }).toString(),
                  text: vm.vmName || a.title || G.lastSegment(a.name),
                }),
              ),
              h('td', null, h('code', { text: vm.vmUuid || '' })),
              h('td', { class: 'os', text: shortOs(vm.osFamily) }),
              h('td', { text: [vm.osName, vm.osVersion].filter(Boolean).join(' ') }),
              h('td', { class: 'power', text: vm.powerState || '' }),
              h('td', { class: 'num cores', text: G.num(vm.coreCount) }),
              h('td', { class: 'num', text: G.num(vm.memoryMb) }),
              h('td', { text: (a.sources || []).map(G.lastSegment).join(', ') }),
            ),
          );
        });
        if (page.nextPageToken) tokens[index + 1] = page.nextPageToken;
        $('inv-range').textContent =
          'Page ' +
          (index + 1) +
          ' · ' +
          G.num(assets.length) +
          (assets.length === 1 ? ' asset' : ' assets') +
          (page.nextPageToken ? ' · more on the next pages' : '');
        $('inv-prev').disabled = index === 0;
        $('inv-next').disabled = !page.nextPageToken;
        $('inv-next').setAttribute('data-page', String(index + 1));
        $('inv-prev').setAttribute('data-page', String(index - 1));
        table.removeAttribute('aria-busy');
        // What the rows on screen answer (parent, filter, order): readers and tests can tell a
        // fresh page from the one it replaces.
        table.setAttribute('data-query', key);
      })
      .catch(function (err) {
        if (mine !== seq) return;
        $('inv-range').textContent = '';
        table.removeAttribute('aria-busy');
        G.notice(err);
      });
  }

  // ---------------------------------------------------------------- one asset

  function gib(bytes) {
    return bytes === undefined ? '' : (Number(bytes) / 1073741824).toLocaleString('en-US', { maximumFractionDigits: 1 }) + ' GiB';
  }

  function dateOf(d) {
    function two(n) {
      return (n < 10 ? '0' : '') + n;
    }
    return d.year + '-' + two(d.month) + '-' + two(d.day);
  }

  G.views.asset = function (p) {
    var name = p.get('name') || '';
    var out = G.clear($('asset-body'));
    $('asset-title').textContent = 'Asset ' + G.lastSegment(name);
    G.request('GET', G.v1alpha1(name), { view: 'ASSET_VIEW_FULL' })
      .then(function (a) {
        var vm = a.virtualMachineDetails || {};
        $('asset-title').textContent = 'Asset ' + (vm.vmName || a.title || G.lastSegment(name));
        var back = name.replace(/\/assets\/[^/]+$/, '');
        out.appendChild(
          h('p', null, h('a', { href: '#' + new URLSearchParams({ view: 'inventory', parent: back }).toString(), text: '‹ Inventory of ' + back })),
        );
        out.appendChild(h('h3', { text: 'Machine' }));
        out.appendChild(
          G.definitions([
            ['Name', a.name],
            ['VM name', vm.vmName],
            ['VM UUID', vm.vmUuid],
            ['Power state', vm.powerState],
            ['Cores', G.num(vm.coreCount)],
            ['Memory', vm.memoryMb === undefined ? '' : G.num(vm.memoryMb) + ' MB'],
            ['OS', [shortOs(vm.osFamily), vm.osName, vm.osVersion].filter(Boolean).join(' · ')],
            ['Created (in the source)', vm.createTime],
            ['Sources', (a.sources || []).join(', ')],
            ['Updated', a.updateTime],
          ]),
        );
        var disks = vm.vmDisks || {};
        var entries = (disks.disks && disks.disks.entries) || [];
        out.appendChild(h('h3', { text: 'Disks' }));
        out.appendChild(
          G.definitions([
            ['Total capacity', gib(disks.hddTotalCapacityBytes)],
            ['Total free', gib(disks.hddTotalFreeBytes)],
          ]),
        );
        out.appendChild(
          h(
            'table',
            { class: 'grid compact', id: 'asset-disks' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { text: 'Disk' }),
                h('th', { class: 'num', text: 'Capacity' }),
                h('th', { class: 'num', text: 'Free' }),
                h('th', { text: 'Interface' }),
              ),
            ),
            h(
              'tbody',
              null,
              entries.length ? null : h('tr', null, h('td', { colspan: 4, class: 'empty', text: 'No disks listed.' })),
              entries.map(function (d) {
                return h(
                  'tr',
                  null,
                  h('td', { text: d.diskLabel || '' }),
                  h('td', { class: 'num', text: gib(d.totalCapacityBytes) }),
                  h('td', { class: 'num', text: gib(d.totalFreeBytes) }),
                  h('td', { text: d.interfaceType || '' }),
                );
              }),
            ),
          ),
        );
        var net = vm.vmNetwork || {};
        var adapters = (net.networkAdapters && net.networkAdapters.networkAdapters) || [];
        out.appendChild(h('h3', { text: 'Network' }));
        out.appendChild(
          G.definitions([
            ['Primary IP', net.primaryIpAddress],
            ['Public IP', net.publicIpAddress],
            ['Primary MAC', net.primaryMacAddress],
            [
              'Adapters',
              adapters
                .map(function (n) {
                  return [n.macAddress]
                    .concat(
                      ((n.addresses && n.addresses.addresses) || []).map(function (x) {
                        return x.ipAddress;
                      }),
                    )
                    .filter(Boolean)
                    .join(' ');
                })
                .join('; '),
            ],
          ]),
        );
        var days = (a.performanceData && a.performanceData.dailyResourceUsageAggregations) || [];
        out.appendChild(h('h3', { text: 'Performance' }));
        out.appendChild(
          G.charts.lines('Daily average utilisation (' + days.length + (days.length === 1 ? ' day)' : ' days)'), [
            {
              label: 'CPU %',
              points: days
                .filter(function (d) {
                  return d.cpu;
                })
                .map(function (d) {
                  return { x: dateOf(d.date), y: d.cpu.utilizationPercentage.average || 0 };
                }),
            },
            {
              label: 'Memory %',
              points: days
                .filter(function (d) {
                  return d.memory;
                })
                .map(function (d) {
                  return { x: dateOf(d.date), y: d.memory.utilizationPercentage.average || 0 };
                }),
            },
          ]),
        );
        var labels = Object.keys(a.labels || {}).sort();
        out.appendChild(h('h3', { text: 'Labels' }));
        out.appendChild(
          labels.length
            ? h(
                'dl',
                { class: 'meta', id: 'asset-labels' },
                labels.map(function (k) {
                  return [h('dt', { text: k }), h('dd', { text: String(a.labels[k]) })];
                }),
              )
            : h('p', { class: 'muted', id: 'asset-labels', text: 'No labels.' }),
        );
        var attrs = Object.keys(a.attributes || {}).sort();
        if (attrs.length) {
          out.appendChild(h('h3', { text: 'Attributes' }));
          out.appendChild(
            G.definitions(
              attrs.map(function (k) {
                return [k, a.attributes[k]];
              }),
            ),
          );
        }
      })
      .catch(G.notice);
  };

  // ---------------------------------------------------------------- summary

  var CORE_BOUNDS = [2, 4, 8, 16, 32, 64];
  var MEMORY_BOUNDS = [2048, 4096, 8192, 16384, 32768, 65536, 131072];
  var GIB = 1024 * 1024 * 1024;
  /** Total disk capacity per machine, in bytes: 32 GiB to 2 TiB, doubling. */
  var DISK_BOUNDS = [32, 64, 128, 256, 512, 1024, 2048].map(function (g) {
    return g * GIB;
  });
  var DISK_FIELD = 'virtualMachineDetails.vmDisks.hddTotalCapacityBytes';
  var MAX_SOURCES = 25;

  /** A bucket's label; `per` is how many of the field's units make one `unit` (1024 MB, 2^30 bytes per GiB). */
  function bucketLabel(b, unit, per) {
    var lo = b.lowerBound;
    var hi = b.upperBound;
    var f = function (v) {
      return G.num(v / (per || 1));
    };
    if (lo === undefined || lo === null || lo === '-Infinity' || lo === -Infinity) return '< ' + f(hi) + (unit ? ' ' + unit : '');
    if (hi === undefined || hi === null || hi === 'Infinity' || hi === Infinity) return '≥ ' + f(lo) + (unit ? ' ' + unit : '');
    return f(lo) + '–' + f(hi) + (unit ? ' ' + unit : '');
  }

  function frequencyBars(result, label) {
    var values = (result && result.frequency && result.frequency.values) || {};
    return Object.keys(values)
      .sort()
      .map(function (k) {
        return { label: label(k), value: Number(values[k]) };
      });
  }

  function histogramBars(result, unit, per) {
    var buckets = (result && result.histogram && result.histogram.buckets) || [];
    return buckets.map(function (b) {
      return { label: bucketLabel(b, unit, per), value: Number(b.count || 0) };
    });
  }

  function aggregate(parent, aggregations, filter) {
    return G.request('POST', G.v1alpha1(parent) + '/assets:aggregateValues', null, { aggregations: aggregations, filter: filter || undefined }).then(
      function (r) {
        return r.results || [];
      },
    );
  }

  G.views.summary = function (p) {
    var out = G.clear($('summary-charts'));
    // The totals of an earlier query never stand next to this one's form.
    $('summary-totals').textContent = '';
    var mine = ++summarySeq;
    parentControls('sum', 'summary', p, function () {
      G.go('summary', { parent: parentOf('sum') });
    }).then(function (hasParent) {
      if (mine !== summarySeq) return;
      if (hasParent) showSummary(p.get('parent'), out, mine);
      else if (!p.get('parent') && !$('sum-project').value) out.appendChild(h('p', { class: 'muted empty-state', text: EMPTY_STATE }));
    });
  };

  var summarySeq = 0;

  function showSummary(parent, out, mine) {
    G.rememberParent(parent);
    out.setAttribute('aria-busy', 'true');
    // One kind per aggregation (Google's Aggregation is a oneof); results come back in order.
    aggregate(parent, [
      { field: 'name', count: {} },
      { field: 'virtualMachineDetails.osFamily', frequency: {} },
      { field: 'virtualMachineDetails.powerState', frequency: {} },
      { field: 'virtualMachineDetails.coreCount', histogram: { lowerBounds: CORE_BOUNDS } },
      { field: 'virtualMachineDetails.memoryMb', histogram: { lowerBounds: MEMORY_BOUNDS } },
      { field: 'virtualMachineDetails.coreCount', sum: {} },
      { field: 'virtualMachineDetails.memoryMb', sum: {} },
      { field: DISK_FIELD, histogram: { lowerBounds: DISK_BOUNDS } },
    ])
      .then(function (results) {
        if (mine !== summarySeq) return;
        var count = Number((results[0] && results[0].count && results[0].count.value) || 0);
        var coreSum = Number((results[5] && results[5].sum && results[5].sum.value) || 0);
        var memorySum = Number((results[6] && results[6].sum && results[6].sum.value) || 0);
        $('summary-totals').textContent =
          G.num(count) + (count === 1 ? ' asset · ' : ' assets · ') + G.num(coreSum) + ' cores · ' + G.num(Math.round(memorySum / 1024)) + ' GiB of memory';
        out.appendChild(G.charts.bars('Assets by OS family', frequencyBars(results[1], shortOs), { id: 'chart-os' }));
        out.appendChild(G.charts.bars('Assets by power state', frequencyBars(results[2], String), { id: 'chart-power' }));
        out.appendChild(G.charts.bars('Cores per machine', histogramBars(results[3], ''), { id: 'chart-cores' }));
        out.appendChild(G.charts.bars('Memory per machine', histogramBars(results[4], 'GiB', 1024), { id: 'chart-memory' }));
        // Machines whose source gave no disk capacity are in no bucket.
        out.appendChild(G.charts.bars('Disk per machine', histogramBars(results[7], 'GiB', GIB), { id: 'chart-disk' }));
        // Counts by source: `sources` is not an aggregatable field, so one count per source
        // (the first 25 sources of the location), each filtered with sources:NAME.
        return G.request('GET', G.v1alpha1(parent) + '/sources', { pageSize: MAX_SOURCES }).then(function (page) {
          var sources = page.sources || [];
          return Promise.all(
            sources.map(function (src) {
              return aggregate(parent, [{ field: 'name', count: {} }], 'sources:' + quoted(src.name)).then(function (r) {
                return { label: src.displayName || G.lastSegment(src.name), value: Number((r[0] && r[0].count && r[0].count.value) || 0) };
              });
            }),
          ).then(function (bars) {
            out.appendChild(
              G.charts.bars('Assets by source' + (page.nextPageToken ? ' (first ' + MAX_SOURCES + ' sources)' : ''), bars, { id: 'chart-sources' }),
            );
          });
        });
      })
      .catch(G.notice)
      .then(function () {
        out.removeAttribute('aria-busy');
      });
  }

  // Paging and filter controls of the inventory.
  function setupInventory() {
    $('inv-filters').addEventListener('change', function () {
      writeInventory();
    });
    $('inv-filters').addEventListener('submit', function (ev) {
      ev.preventDefault();
      writeInventory();
    });
    $('inv-prev').addEventListener('click', function () {
      writeInventory({ page: $('inv-prev').getAttribute('data-page') });
    });
    $('inv-next').addEventListener('click', function () {
      writeInventory({ page: $('inv-next').getAttribute('data-page') });
    });
  }
  if (document.readyState === 'complete') setupInventory();
  else document.addEventListener('DOMContentLoaded', setupInventory);
})();
