// @ts-check
/*
 * The console's planning views, all through the public REST API (as inventory.js's):
 *   #view=groups&parent=P&page=N          groups.list; each group's member count (assets:aggregateValues)
 *   #view=group&name=GROUP&page=N         groups.get, its assets (assets.list filtered by assignedGroups)
 *   #view=preferenceSets&parent=P&page=N  preferenceSets.list, the location's default (getSettings)
 *   #view=preferenceSet&name=SET          preferenceSets.get: every field, enum values in words
 *   #view=reports&parent=P&page=N         reportConfigs.list, each config's groups, sets and reports
 *   #view=report&name=REPORT              reports.get (FULL view): totals, charts, findings
 * The computing (chart series, rows, requests, paging) is planning-model.js's (GNL.planning);
 * this file draws. Every value is put in the page as text.
 */
(function () {
  'use strict';

  var G = window.GNL;
  var P = G.planning;
  var h = G.h;
  var $ = G.$;

  var PAGE_SIZE = 50;
  var EMPTY_STATE = 'The emulator holds no assets or import jobs yet: import an inventory (Import), or enter a project and a location, then Show.';

  function href(view, values) {
    var p = new URLSearchParams({ view: view });
    Object.keys(values).forEach(function (k) {
      p.set(k, values[k]);
    });
    return '#' + p.toString();
  }

  function link(view, name, text, cls) {
    return h('a', { href: href(view, { name: name }), class: cls, text: text });
  }

  function time(iso) {
    return iso
      ? h('time', {
          datetime: iso,
          title: iso,
          text: String(iso)
            .replace('T', ' ')
            .replace(/\.\d+Z$|Z$/, ' UTC'),
        })
      : '';
  }

  function labelsText(labels) {
    return Object.keys(labels || {})
      .sort()
      .map(function (k) {
        return k + '=' + labels[k];
      })
      .join(', ');
  }

  function backTo(view, parent, text) {
    return h('p', null, h('a', { href: href(view, { parent: parent }), text: '‹ ' + text + ' of ' + parent }));
  }

  /**
   * A list view of a location: project/location fields (kit.js parentControls), then `list(parent,
   * token)` for the page of the address; Previous / Next move over the tokens learnt (`page=N`).
   */
  function listView(prefix, view, render) {
    var tokens = [''];
    var key = '';
    var seq = 0;
    $(prefix + '-prev').addEventListener('click', function () {
      G.go(view, { parent: G.params().get('parent'), page: $(prefix + '-prev').getAttribute('data-page') });
    });
    $(prefix + '-next').addEventListener('click', function () {
      G.go(view, { parent: G.params().get('parent'), page: $(prefix + '-next').getAttribute('data-page') });
    });
    G.views[view] = function (p) {
      var mine = ++seq;
      var out = G.clear($(prefix + '-list'));
      $(prefix + '-range').textContent = '';
      $(prefix + '-prev').disabled = true;
      $(prefix + '-next').disabled = true;
      G.parentControls(prefix, view, p, function () {
        G.go(view, { parent: G.parentFromForm(prefix) });
      }).then(function (hasParent) {
        if (mine !== seq) return;
        if (!hasParent) {
          if (!p.get('parent') && !$(prefix + '-project').value) out.appendChild(h('p', { class: 'muted empty-state', text: EMPTY_STATE }));
          return;
        }
        var parent = p.get('parent');
        G.rememberParent(parent);
        if (parent !== key) {
          key = parent;
          tokens = [''];
        }
        var at = P.pageAt(tokens, p.get('page'));
        out.setAttribute('aria-busy', 'true');
        render(parent, at.token, out)
          .then(function (result) {
            if (mine !== seq) return;
            tokens = P.learnPage(tokens, at.page, result.nextPageToken);
            $(prefix + '-range').textContent =
              'Page ' + (at.page + 1) + ' · ' + G.plural(result.shown, result.noun) + (result.nextPageToken ? ' · more on the next pages' : '');
            $(prefix + '-prev').disabled = at.page === 0;
            $(prefix + '-next').disabled = !result.nextPageToken;
            $(prefix + '-prev').setAttribute('data-page', String(at.page - 1));
            $(prefix + '-next').setAttribute('data-page', String(at.page + 1));
          })
          .catch(G.notice)
          .then(function () {
            out.removeAttribute('aria-busy');
          });
      });
    };
  }

  function table(id, headers, rows, empty) {
    return h(
      'table',
      { class: 'grid compact', id: id },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          headers.map(function (t) {
            return h('th', { text: t.replace(/^#/, ''), class: t.charAt(0) === '#' ? 'num' : undefined });
          }),
        ),
      ),
      h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: headers.length, class: 'empty', text: empty }))),
    );
  }

  /** How many assets a group holds: a count over its members (one request per group shown). */
  function memberCount(parent, group) {
    return G.request('POST', G.v1alpha1(parent) + '/assets:aggregateValues', null, P.groupCountBody(group)).then(function (r) {
      var first = (r.results || [])[0];
      return Number((first && first.count && first.count.value) || 0);
    });
  }

  // ---------------------------------------------------------------- groups

  function renderGroups(parent, token, out) {
    return G.request('GET', G.v1alpha1(parent) + '/groups', { pageSize: PAGE_SIZE, pageToken: token }).then(function (page) {
      var groups = page.groups || [];
      out.appendChild(
        table(
          'groups',
          ['Group', 'Description', 'Labels', '#Assets', 'Updated'],
          groups.map(function (g) {
            var count = h('td', { class: 'num members', text: '…' });
            memberCount(parent, g.name).then(
              function (c) {
                count.textContent = G.num(c);
              },
              function () {
                count.textContent = '—';
              },
            );
            return h(
              'tr',
              { class: 'group', 'data-name': g.name },
              h(
                'td',
                null,
                link('group', g.name, g.displayName || G.lastSegment(g.name), 'group-link'),
                h('div', { class: 'muted name', text: G.lastSegment(g.name) }),
              ),
              h('td', { text: g.description || '' }),
              h('td', { text: labelsText(g.labels) }),
              count,
              h('td', null, time(g.updateTime)),
            );
          }),
          'No groups in this location.',
        ),
      );
      return { shown: groups.length, noun: 'group', nextPageToken: page.nextPageToken };
    });
  }

  var groupTokens = [''];
  var groupShown = '';
  var groupSeq = 0;
  G.views.group = function (p) {
    var name = p.get('name') || '';
    var mine = ++groupSeq;
    var out = G.clear($('group-body'));
    $('group-title').textContent = 'Group ' + G.lastSegment(name);
    if (name !== groupShown) {
      groupShown = name;
      groupTokens = [''];
    }
    var parent = G.parentOfName(name);
    var at = P.pageAt(groupTokens, p.get('page'));
    Promise.all([
      G.request('GET', G.v1alpha1(name)),
      G.request('GET', G.v1alpha1(parent) + '/assets', P.groupAssetsQuery(name, PAGE_SIZE, at.token)),
      memberCount(parent, name).catch(function () {
        return undefined;
      }),
    ])
      .then(function (answers) {
        if (mine !== groupSeq) return;
        var g = answers[0];
        var page = answers[1];
        var count = answers[2];
        $('group-title').textContent = 'Group ' + (g.displayName || G.lastSegment(g.name));
        out.appendChild(backTo('groups', parent, 'Groups'));
        out.appendChild(
          G.definitions([
            ['Name', h('code', { text: g.name })],
            ['Display name', g.displayName],
            ['Description', g.description],
            ['Labels', labelsText(g.labels)],
            ['Assets', count === undefined ? '' : h('span', { id: 'group-count', text: G.plural(count, 'asset') })],
            ['Created', time(g.createTime)],
            ['Updated', time(g.updateTime)],
          ]),
        );
        var assets = page.assets || [];
        groupTokens = P.learnPage(groupTokens, at.page, page.nextPageToken);
        out.appendChild(h('h3', { text: 'Its assets' }));
        out.appendChild(
          table(
            'group-assets',
            ['VM name', 'OS family', '#Cores', '#Memory (MB)', 'Sources'],
            assets.map(function (a) {
              var vm = a.virtualMachineDetails || {};
              return h(
                'tr',
                { class: 'asset', 'data-name': a.name },
                h('td', null, link('asset', a.name, vm.vmName || a.title || G.lastSegment(a.name), 'asset-link')),
                h('td', { text: G.osFamilyName(vm.osFamily) }),
                h('td', { class: 'num', text: G.num(vm.coreCount) }),
                h('td', { class: 'num', text: G.num(vm.memoryMb) }),
                h('td', { text: (a.sources || []).map(G.lastSegment).join(', ') }),
              );
            }),
            'This group has no assets.',
          ),
        );
        out.appendChild(
          h(
            'div',
            { class: 'pager' },
            h('button', {
              type: 'button',
              disabled: at.page === 0,
              text: '‹ Previous',
              onclick: function () {
                G.go('group', { name: name, page: at.page - 1 });
              },
            }),
            h('span', { class: 'range', text: 'Page ' + (at.page + 1) + ' · ' + G.plural(assets.length, 'asset') }),
            h('button', {
              type: 'button',
              disabled: !page.nextPageToken,
              text: 'Next ›',
              onclick: function () {
                G.go('group', { name: name, page: at.page + 1 });
              },
            }),
          ),
        );
      })
      .catch(G.notice);
  };

  // ---------------------------------------------------------------- preference sets

  function renderPreferenceSets(parent, token, out) {
    return Promise.all([
      G.request('GET', G.v1alpha1(parent) + '/preferenceSets', { pageSize: PAGE_SIZE, pageToken: token }),
      G.request('GET', G.v1alpha1(parent) + '/settings').catch(function () {
        return {};
      }),
    ]).then(function (answers) {
      var sets = answers[0].preferenceSets || [];
      var byDefault = answers[1].preferenceSet || '';
      out.appendChild(
        table(
          'preference-sets',
          ['Preference set', 'Target product', 'Sizing', 'Commitment plan', 'Regions', 'Updated'],
          sets.map(function (s) {
            var vm = s.virtualMachinePreferences || {};
            var regions = ((s.regionPreferences && s.regionPreferences.preferredRegions) || []).concat(
              (vm.regionPreferences && vm.regionPreferences.preferredRegions) || [],
            );
            return h(
              'tr',
              { class: 'preference-set', 'data-name': s.name },
              h(
                'td',
                null,
                link('preferenceSet', s.name, s.displayName || G.lastSegment(s.name), 'preference-set-link'),
                s.name === byDefault ? h('span', { class: 'badge default', text: 'default' }) : null,
                h('div', { class: 'muted name', text: G.lastSegment(s.name) }),
              ),
              h('td', { text: vm.targetProduct ? P.enumWord(vm.targetProduct) : '' }),
              h('td', { text: vm.sizingOptimizationStrategy ? P.enumWord(vm.sizingOptimizationStrategy) : '' }),
              h('td', { text: vm.commitmentPlan ? P.enumWord(vm.commitmentPlan) : '' }),
              h('td', { text: regions.join(', ') }),
              h('td', null, time(s.updateTime)),
            );
          }),
          'No preference sets in this location.',
        ),
      );
      return { shown: sets.length, noun: 'preference set', nextPageToken: answers[0].nextPageToken };
    });
  }

  G.views.preferenceSet = function (p) {
    var name = p.get('name') || '';
    var out = G.clear($('preference-set-body'));
    $('preference-set-title').textContent = 'Preference set ' + G.lastSegment(name);
    G.request('GET', G.v1alpha1(name))
      .then(function (s) {
        $('preference-set-title').textContent = 'Preference set ' + (s.displayName || G.lastSegment(s.name));
        out.appendChild(backTo('preferenceSets', G.parentOfName(name), 'Preference sets'));
        out.appendChild(
          G.definitions([
            ['Name', h('code', { text: s.name })],
            ['Display name', s.displayName],
            ['Description', s.description],
            ['Preferred regions', ((s.regionPreferences && s.regionPreferences.preferredRegions) || []).join(', ')],
            ['Created', time(s.createTime)],
            ['Updated', time(s.updateTime)],
          ]),
        );
        var rows = P.preferenceRows(s.virtualMachinePreferences || {}, '');
        out.appendChild(h('h3', { text: 'Virtual machine preferences' }));
        out.appendChild(
          rows.length
            ? h(
                'dl',
                { class: 'meta', id: 'vm-preferences' },
                rows.map(function (r) {
                  return [h('dt', { text: r[0] }), h('dd', { text: r[1] })];
                }),
              )
            : h('p', { class: 'muted', id: 'vm-preferences', text: 'No virtual machine preferences: Google applies its defaults.' }),
        );
      })
      .catch(G.notice);
  };

  // ---------------------------------------------------------------- report configs and reports

  function renderReportConfigs(parent, token, out) {
    return G.request('GET', G.v1alpha1(parent) + '/reportConfigs', { pageSize: PAGE_SIZE, pageToken: token }).then(function (page) {
      var configs = page.reportConfigs || [];
      if (!configs.length) out.appendChild(h('p', { class: 'empty', text: 'No report configs in this location.' }));
      return Promise.all(
        configs.map(function (c) {
          return G.request('GET', G.v1alpha1(c.name) + '/reports', { pageSize: PAGE_SIZE }).then(function (r) {
            return { config: c, reports: r.reports || [], more: !!r.nextPageToken };
          });
        }),
      ).then(function (all) {
        all.forEach(function (item) {
          var c = item.config;
          out.appendChild(
            h(
              'div',
              { class: 'report-config', 'data-name': c.name },
              h('h3', null, c.displayName || G.lastSegment(c.name), ' ', h('code', { class: 'muted', text: G.lastSegment(c.name) })),
              c.description ? h('p', { class: 'muted', text: c.description }) : null,
              h(
                'ul',
                { class: 'assignments' },
                (c.groupPreferencesetAssignments || []).map(function (a) {
                  return h(
                    'li',
                    null,
                    link('group', a.group, G.lastSegment(a.group)),
                    ' sized with ',
                    link('preferenceSet', a.preferenceSet, G.lastSegment(a.preferenceSet)),
                  );
                }),
              ),
              table(
                '',
                ['Report', 'State', 'Type', 'Created'],
                item.reports.map(function (r) {
                  return h(
                    'tr',
                    { class: 'report', 'data-name': r.name },
                    h('td', null, link('report', r.name, r.displayName || G.lastSegment(r.name), 'report-link')),
                    h('td', { class: 'state', text: r.state || '' }),
                    h('td', { text: r.type || '' }),
                    h('td', null, time(r.createTime)),
                  );
                }),
                'No reports of this config yet.',
              ),
              item.more ? h('p', { class: 'muted', text: 'Only the first ' + PAGE_SIZE + ' reports are listed.' }) : null,
            ),
          );
        });
        return { shown: configs.length, noun: 'report config', nextPageToken: page.nextPageToken };
      });
    });
  }

  function chartsOf(stats, prefix) {
    return h(
      'div',
      { class: 'charts' },
      P.reportCharts(stats).map(function (c) {
        return G.charts.bars(c.title, c.bars, { id: prefix + c.id, valueWidth: c.id.slice(-4) === '-use' ? 140 : 90 });
      }),
    );
  }

  G.views.report = function (p) {
    var name = p.get('name') || '';
    var out = G.clear($('report-body'));
    $('report-title').textContent = 'Report ' + G.lastSegment(name);
    G.request('GET', G.v1alpha1(name), { view: 'REPORT_VIEW_FULL' })
      .then(function (r) {
        var config = name.replace(/\/reports\/[^/]+$/, '');
        var summary = r.summary || {};
        $('report-title').textContent = 'Report ' + (r.displayName || G.lastSegment(r.name));
        out.appendChild(backTo('reports', G.parentOfName(name), 'Reports'));
        out.appendChild(
          G.definitions([
            ['Name', h('code', { text: r.name })],
            ['Report config', h('code', { text: config })],
            ['State', h('span', { id: 'report-state', text: r.state || '' })],
            ['Type', r.type],
            ['Description', r.description],
            ['Created', time(r.createTime)],
          ]),
        );
        out.appendChild(h('h3', { text: 'All assets' }));
        out.appendChild(h('p', { class: 'totals', id: 'report-totals', text: P.totalsText(summary.allAssetsStats) }));
        out.appendChild(chartsOf(summary.allAssetsStats, 'report-chart-'));
        out.appendChild(h('h3', { text: 'Findings' }));
        out.appendChild(
          table(
            'report-findings',
            ['Group', 'Preference set', 'Region', 'Allocated', 'Machine series'],
            P.findingRows(summary).map(function (f) {
              return h(
                'tr',
                { class: 'finding' },
                h('td', null, link('group', f.group, f.groupTitle)),
                h('td', null, f.preferenceSet ? link('preferenceSet', f.preferenceSet, f.preferenceSetTitle) : f.preferenceSetTitle),
                h('td', { text: f.region }),
                h('td', { text: f.allocated }),
                h('td', { text: f.series }),
              );
            }),
            'No findings.',
          ),
        );
        (summary.groupFindings || []).forEach(function (g) {
          out.appendChild(
            h(
              'p',
              { class: 'group-totals' },
              h('strong', { text: (g.displayName || G.lastSegment(g.group || '')) + ': ' }),
              P.totalsText(g.assetAggregateStats),
            ),
          );
        });
        out.appendChild(h('p', { class: 'muted', text: 'Cost fields are absent: the emulator does not invent prices (docs/migration-center.md).' }));
      })
      .catch(G.notice);
  };

  function setup() {
    listView('grp', 'groups', renderGroups);
    listView('pset', 'preferenceSets', renderPreferenceSets);
    listView('rep', 'reports', renderReportConfigs);
  }
  // A deferred script runs once the page is parsed, before DOMContentLoaded, when kit.js routes.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', setup);
  else setup();
})();
