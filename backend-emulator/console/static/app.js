// @ts-check
/*
 * The emulator console: reads the emulator's JSON routes under /emulator/v1/console and renders
 * them. Plain browser JavaScript, no framework, no build step. Every value from the server is put
 * into the page as text (textContent), never as HTML.
 *
 * Page state lives in the URL fragment: #job=NAME&report=validation&file=F&severity=ERROR&offset=0&size=50
 * With --auth, an admin token given once as #token=TOKEN is kept in sessionStorage and sent as
 * `Authorization: Bearer TOKEN`.
 *
 * Elements, REST calls and the token are kit.js's (window.GNL, loaded first); this file keeps only
 * what the overview alone uses.
 */
(function () {
  'use strict';

  var API = '/emulator/v1/console';
  var SEVERITIES = window.GNL_CONSTANTS.severities;

  // ---------------------------------------------------------------- helpers

  var G = window.GNL;
  var $ = G.$;
  var h = G.h;
  var append = G.append;
  var clear = G.clear;
  var num = G.num;
  var lastSegment = G.lastSegment;

  /** 2024-05-01T12:00:03.123Z -> 2024-05-01 12:00:03 UTC (the full value as a tooltip). */
  function time(iso) {
    if (!iso) return h('span', { class: 'muted', text: '—' });
    var m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso);
    return h('time', { datetime: iso, title: iso, text: m ? m[1] + ' ' + m[2] + ' UTC' : iso });
  }

  function shortState(state) {
    return String(state || '').replace(/^IMPORT_JOB_STATE_/, '');
  }

  function severityBadge(severity) {
    return h('span', { class: 'sev sev-' + String(severity).toLowerCase(), text: severity });
  }

  function countsLine(counts) {
    if (!counts) return null;
    return h(
      'span',
      { class: 'counts' },
      SEVERITIES.filter(function (s) {
        return counts[s];
      }).map(function (s) {
        return h('span', { class: 'count sev-' + s.toLowerCase(), title: s, text: G.severityCount(counts[s], s) });
      }),
    );
  }

  // ---------------------------------------------------------------- fetching

  /** A console route's JSON; an error answer rejects with kit.js's ApiError (`NOT_FOUND: message`). */
  function getJSON(path, params) {
    return G.request('GET', path, params);
  }

  function showError(err) {
    var notice = $('notice');
    var text = err && err.message ? err.message : String(err);
    if (err && (err.status === 401 || err.status === 403)) {
      text += ' — this emulator runs with --auth: open the console as /#token=ADMIN_TOKEN (an adminTokens entry of the auth file).';
    }
    notice.textContent = text;
    notice.hidden = false;
  }

  function clearError() {
    $('notice').hidden = true;
  }

  /** Runs `load` for one panel; a response that arrives after a newer request started is dropped. */
  function panel(render) {
    var seq = 0;
    return function () {
      var mine = ++seq;
      var args = arguments;
      return render
        .apply(
          null,
          [
            function () {
              return mine === seq;
            },
          ].concat([].slice.call(args)),
        )
        .catch(function (err) {
          if (mine === seq) showError(err);
        });
    };
  }

  /** Prev/Next paging over page tokens: keeps the tokens of the pages seen. */
  function TokenPager(container, load) {
    this.container = container;
    this.load = load;
    this.reset();
  }
  TokenPager.prototype.reset = function () {
    this.tokens = [''];
    this.index = 0;
    this.next = undefined;
  };
  TokenPager.prototype.current = function () {
    return this.tokens[this.index];
  };
  TokenPager.prototype.render = function (shown, nextPageToken) {
    var self = this;
    this.next = nextPageToken;
    clear(this.container);
    if (this.index === 0 && !nextPageToken) {
      append(this.container, h('span', { class: 'range', text: num(shown) + (shown === 1 ? ' item' : ' items') }));
      return;
    }
    append(
      this.container,
      h(
        'button',
        {
          type: 'button',
          disabled: this.index === 0,
          onclick: function () {
            self.index--;
            self.load();
          },
        },
        '‹ Previous',
      ),
      h('span', { class: 'range', text: 'page ' + (this.index + 1) + ' · ' + num(shown) + ' shown' }),
      h(
        'button',
        {
          type: 'button',
          disabled: !nextPageToken,
          onclick: function () {
            self.tokens = self.tokens.slice(0, self.index + 1);
            self.tokens.push(self.next);
            self.index++;
            self.load();
          },
        },
        'Next ›',
      ),
    );
  };

  // ---------------------------------------------------------------- URL fragment state

  function readState() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ''));
    var size = parseInt(params.get('size') || '50', 10);
    return {
      job: params.get('job') || '',
      report: params.get('report') === 'execution' ? 'execution' : 'validation',
      file: params.get('file') || '',
      severity: params.get('severity') || '',
      offset: Math.max(0, parseInt(params.get('offset') || '0', 10) || 0),
      size: size > 0 ? size : 50,
    };
  }

  function writeState(state) {
    var params = new URLSearchParams();
    if (state.job) {
      params.set('job', state.job);
      params.set('report', state.report);
      if (state.file) params.set('file', state.file);
      if (state.severity) params.set('severity', state.severity);
      if (state.offset) params.set('offset', String(state.offset));
      if (state.size !== 50) params.set('size', String(state.size));
    }
    var hash = params.toString();
    if (location.hash.replace(/^#/, '') !== hash) location.hash = hash;
    else route();
  }

  function jobHref(name) {
    return '#' + new URLSearchParams({ job: name, report: 'validation' }).toString();
  }

  /** The console route of a job: /emulator/v1/console/projects/P/locations/L/importJobs/J */
  function jobPath(name) {
    return API + '/' + String(name).split('/').map(encodeURIComponent).join('/');
  }

  // ---------------------------------------------------------------- summary

  /** The overview is this file's page: shown when the address names no other view. */
  function onOverview() {
    return !G.params().get('view');
  }

  /**
   * The header's counts come from an admin route: a user token (enough for the Import, Inventory
   * and Summary views, which use the public API) gets a 403 there, said only on the overview.
   */
  function refreshCounts() {
    loadSummary().catch(function (err) {
      if (onOverview()) showError(err);
    });
  }

  function loadSummary() {
    return getJSON(API + '/summary').then(function (s) {
      var policies = num(s.endpointPolicies) + (Number(s.endpointPolicies) === 1 ? ' endpoint policy' : ' endpoint policies');
      $('summary').textContent = policies + ' · ' + G.plural(s.importJobs, 'import job') + ' · ' + G.plural(s.assets, 'asset');
    });
  }

  // ---------------------------------------------------------------- endpoint policies

  function bindingView(binding) {
    var cond = binding.condition;
    return h(
      'div',
      { class: 'binding' },
      h('div', { class: 'role', text: binding.role }),
      h(
        'ul',
        { class: 'members' },
        (binding.members || []).map(function (m) {
          return h('li', { class: 'member', text: m });
        }),
      ),
      cond
        ? h(
            'div',
            { class: 'condition' },
            h('span', { class: 'cond-label', text: 'condition' }),
            h('span', { class: 'cond-title', text: cond.title || '(untitled)' }),
            cond.description ? h('span', { class: 'cond-desc', text: cond.description }) : null,
            h('code', { class: 'cond-expr', text: cond.expression }),
          )
        : null,
    );
  }

  var policiesPager;
  var loadPolicies = panel(function (current) {
    return getJSON(API + '/endpointPolicies', { pageToken: policiesPager.current(), pageSize: 50 }).then(function (page) {
      if (!current()) return;
      var tbody = clear($('policies').tBodies[0]);
      var items = page.endpointPolicies || [];
      if (items.length === 0) tbody.appendChild(h('tr', null, h('td', { colspan: 5, class: 'empty', text: 'No endpoint policies.' })));
      items.forEach(function (item) {
        var p = item.policy;
        var iam = item.iamPolicy || {};
        var bindings = iam.bindings || [];
        tbody.appendChild(
          h(
            'tr',
            { 'data-name': p.name },
            h('td', null, h('div', { class: 'name', text: p.name }), p.description ? h('div', { class: 'muted', text: p.description }) : null),
            h('td', { text: p.type || '' }),
            h('td', null, time(p.updateTime)),
            h(
              'td',
              null,
              h('code', { class: 'etag', text: iam.etag || '' }),
              h('div', { class: 'muted', text: 'version ' + (iam.version || 1) + (item.iamRevision ? ' · revision ' + item.iamRevision : '') }),
              item.iamUpdateTime ? h('div', { class: 'muted' }, 'set ', time(item.iamUpdateTime)) : null,
            ),
            h('td', null, bindings.length ? bindings.map(bindingView) : h('span', { class: 'muted', text: 'no bindings' })),
          ),
        );
      });
      policiesPager.render(items.length, page.nextPageToken);
    });
  });

  // ---------------------------------------------------------------- import jobs

  function reportCell(counts, extra) {
    if (!counts) return h('span', { class: 'muted', text: '—' });
    return h(
      'div',
      null,
      h('div', { text: num(counts.rowErrors) + (counts.rowErrors === 1 ? ' row' : ' rows') + ' with errors' }),
      extra ? h('div', { class: 'muted', text: extra }) : null,
      countsLine(counts.bySeverity),
    );
  }

  function payloadCell(payload) {
    if (!payload) return h('span', { class: 'muted', text: '—' });
    return h(
      'div',
      null,
      h('div', { class: 'muted', text: String(payload.format || '').replace(/^IMPORT_JOB_FORMAT_/, '') }),
      payload.path ? h('code', { text: payload.path }) : null,
      (payload.files || []).map(function (f) {
        return h('div', { class: 'file', text: f.name + ' (' + num(f.bytes) + ' B)' });
      }),
      // A job fed through the upload flow: its data files (their bytes are not counted here).
      (payload.dataFiles || []).map(function (name) {
        return h('div', { class: 'file data-file', text: name });
      }),
      payload.dataFileCount > (payload.dataFiles || []).length
        ? h('div', { class: 'muted', text: 'and ' + num(payload.dataFileCount - payload.dataFiles.length) + ' more data files' })
        : null,
      payload.dataFileCount ? h('div', { class: 'muted', text: G.plural(payload.dataFileCount, 'data file') }) : null,
    );
  }

  var jobsPager;
  var loadJobs = panel(function (current) {
    return getJSON(API + '/importJobs', { pageToken: jobsPager.current(), pageSize: 50 }).then(function (page) {
      if (!current()) return;
      var tbody = clear($('jobs').tBodies[0]);
      var items = page.importJobs || [];
      if (items.length === 0) tbody.appendChild(h('tr', null, h('td', { colspan: 8, class: 'empty', text: 'No import jobs.' })));
      var selected = readState().job;
      items.forEach(function (j) {
        var ex = j.execution;
        tbody.appendChild(
          h(
            'tr',
            { 'data-name': j.name, class: j.name === selected ? 'selected' : '' },
            h(
              'td',
              null,
              h('a', { href: jobHref(j.name), class: 'job-link', text: j.displayName || lastSegment(j.name) }),
              h('div', { class: 'muted name', text: j.name }),
            ),
            h('td', null, h('span', { class: 'state state-' + shortState(j.state).toLowerCase(), text: shortState(j.state) })),
            h('td', null, time(j.createTime)),
            h('td', null, time(j.updateTime)),
            h('td', null, time(j.completeTime)),
            h('td', null, payloadCell(j.payload)),
            h('td', null, reportCell(j.validation)),
            h('td', null, reportCell(ex, ex ? num(ex.framesReported) + ' frames · ' + num(ex.totalRowsCount) + ' rows' : '')),
          ),
        );
      });
      jobsPager.render(items.length, page.nextPageToken);
    });
  });

  // ---------------------------------------------------------------- one job

  var detail; // the JobDetail shown

  function errorList(title, errors, total) {
    if (!total) return null;
    return h(
      'div',
      { class: 'error-list' },
      h('h4', { text: title + ' (' + num(total) + ')' }),
      h(
        'ul',
        null,
        errors.map(function (e) {
          return h('li', null, severityBadge(e.severity), ' ', e.errorDetails);
        }),
      ),
      total > errors.length ? h('div', { class: 'muted', text: 'and ' + num(total - errors.length) + ' more' }) : null,
    );
  }

  // The job's import data files: display name, format, state, create time (no signed URL).
  function dataFilesCell(files, total) {
    return h(
      'div',
      null,
      h(
        'table',
        { class: 'grid compact', id: 'data-files' },
        h('thead', null, h('tr', null, h('th', { text: 'File' }), h('th', { text: 'Format' }), h('th', { text: 'State' }), h('th', { text: 'Created' }))),
        h(
          'tbody',
          null,
          files.map(function (f) {
            return h(
              'tr',
              { 'data-name': f.name },
              h('td', null, h('span', { text: f.displayName || lastSegment(f.name) }), ' ', h('code', { class: 'muted', text: lastSegment(f.name) })),
              h('td', { text: (f.format || '').replace('IMPORT_JOB_FORMAT_', '') }),
              h('td', { text: f.state }),
              h('td', null, time(f.createTime)),
            );
          }),
        ),
      ),
      total > files.length ? h('div', { class: 'muted', text: 'and ' + num(total - files.length) + ' more' }) : null,
    );
  }

  function renderJobHeader(job, state) {
    $('job-title').textContent = 'Import job ' + (job.displayName ? job.displayName + ' — ' : '') + lastSegment(job.name);
    var meta = clear($('job-meta'));
    function row(label, value) {
      meta.appendChild(h('dt', { text: label }));
      meta.appendChild(h('dd', null, value));
    }
    row('Name', h('code', { text: job.name }));
    row('State', h('span', { class: 'state state-' + shortState(job.state).toLowerCase(), id: 'job-state', text: shortState(job.state) }));
    row('Created', time(job.createTime));
    row('Updated', time(job.updateTime));
    row('Completed', time(job.completeTime));
    if (job.assetSource) row('Asset source', h('code', { text: job.assetSource }));
    row('Payload', payloadCell(job.payload));
    if (job.dataFileCount) row('Data files', dataFilesCell(job.dataFiles, job.dataFileCount));
    if (job.labels && Object.keys(job.labels).length) {
      row(
        'Labels',
        Object.keys(job.labels).map(function (k) {
          return h('span', { class: 'label', text: k + '=' + job.labels[k] });
        }),
      );
    }

    var tabs = $('report-tabs').querySelectorAll('button');
    [].forEach.call(tabs, function (b) {
      var kind = b.getAttribute('data-report');
      var present = kind === 'validation' ? !!job.validationReport : !!job.executionReport;
      b.setAttribute('aria-selected', String(kind === state.report));
      b.disabled = !present && kind !== state.report;
      b.textContent = (kind === 'validation' ? 'Validation report' : 'Execution report') + (present ? '' : ' (none)');
    });

    var report = state.report === 'validation' ? job.validationReport : job.executionReport;
    var summary = clear($('report-summary'));
    if (!report) {
      summary.appendChild(h('p', { class: 'muted', text: 'This job has no ' + state.report + ' report yet.' }));
    } else {
      if (state.report === 'execution') {
        summary.appendChild(h('p', { text: num(report.framesReported) + ' frames reported · ' + num(report.totalRowsCount) + ' rows read' }));
      }
      append(summary, errorList('Job errors', report.jobErrors, report.jobErrorCount));
      summary.appendChild(
        h(
          'table',
          { class: 'grid compact files' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['File', 'Rows with errors', 'Errors by severity', 'Partial', 'File errors'].map(function (t, i) {
                return h('th', { text: t, class: i === 1 ? 'num' : undefined });
              }),
            ),
          ),
          h(
            'tbody',
            null,
            report.files.length === 0 ? h('tr', null, h('td', { colspan: 5, class: 'empty', text: 'No files in this report.' })) : null,
            report.files.map(function (f) {
              return h(
                'tr',
                null,
                h('td', { text: f.fileName }),
                h('td', { class: 'num', text: num(f.rowErrors) }),
                h('td', null, countsLine(f.bySeverity)),
                h('td', { text: f.partialReport ? 'yes' : 'no' }),
                h('td', null, f.fileErrorCount ? errorList('', f.fileErrors, f.fileErrorCount) : h('span', { class: 'muted', text: '—' })),
              );
            }),
          ),
        ),
      );
    }

    // Filter choices.
    var fileSelect = clear($('filter-file'));
    fileSelect.appendChild(h('option', { value: '', text: 'All files' }));
    ((report && report.files) || []).forEach(function (f) {
      var lines = SEVERITIES.reduce(function (n, s) {
        return n + (f.bySeverity[s] || 0);
      }, 0);
      fileSelect.appendChild(h('option', { value: f.fileName, text: f.fileName + ' (' + num(lines) + ')' }));
    });
    if (
      state.file &&
      !((report && report.files) || []).some(function (f) {
        return f.fileName === state.file;
      })
    ) {
      fileSelect.appendChild(h('option', { value: state.file, text: state.file + ' (not in this report)' }));
    }
    fileSelect.value = state.file;
    $('filter-size').value = String(state.size);
  }

  function renderSeverityChoices(counts, state) {
    var select = clear($('filter-severity'));
    var total = Object.keys(counts || {}).reduce(function (n, k) {
      return n + counts[k];
    }, 0);
    select.appendChild(h('option', { value: '', text: 'All severities (' + num(total) + ')' }));
    SEVERITIES.forEach(function (s) {
      select.appendChild(h('option', { value: s, text: s + ' (' + num((counts && counts[s]) || 0) + ')' }));
    });
    select.value = state.severity;
  }

  /**
   * One row error opened: where it is (file, sheet, row), the machine it names, the error, and the
   * row's cells. The report holds no cell values (Google's ImportRowError has none): the cells are
   * read back from the job's files, and a cell whose column the error names is marked.
   */
  function showRowError(r) {
    var box = $('row-detail');
    clear(box);
    box.hidden = false;
    box.appendChild(h('h4', { id: 'row-detail-title', text: r.fileName + (r.sheet ? ' · sheet ' + r.sheet : '') + ' · row ' + r.rowNumber }));
    var dl = h('dl', { class: 'meta' });
    [
      ['File', r.fileName],
      ['Sheet', r.sheet],
      ['Row', String(r.rowNumber)],
      ['VM name', r.vmName || r.assetTitle],
      ['VM UUID', r.vmUuid],
      ['Severity', r.severity],
      ['Details', r.errorDetails],
    ].forEach(function (pair) {
      if (!pair[1]) return;
      dl.appendChild(h('dt', { text: pair[0] }));
      dl.appendChild(h('dd', { class: 'row-detail-' + pair[0].toLowerCase().replace(/ /g, '-'), text: pair[1] }));
    });
    box.appendChild(dl);
    var cells = h('div', { id: 'row-cells', class: 'muted', text: 'Reading the row…' });
    box.appendChild(cells);
    box.focus();
    getJSON(jobPath(readState().job) + '/rowCells', { file: r.fileName, sheet: r.sheet, row: r.rowNumber })
      .then(function (row) {
        if (!cells.isConnected) return;
        clear(cells);
        if (!row.header) {
          cells.textContent = "The row is not in the job's files any more (or it was skipped unread).";
          return;
        }
        cells.className = '';
        cells.appendChild(
          h(
            'table',
            { class: 'grid compact row-cells' },
            h('thead', null, h('tr', null, h('th', { text: 'Column' }), h('th', { text: 'Value' }))),
            h(
              'tbody',
              null,
              row.header.map(function (name, i) {
                var bad = namesColumn(r.errorDetails || '', name);
                return h(
                  'tr',
                  { class: bad ? 'bad-cell' : null, 'data-column': name },
                  h('td', { text: name }),
                  h('td', { class: 'cell-value', text: row.cells[i] === undefined ? '' : row.cells[i] }),
                );
              }),
            ),
          ),
        );
      })
      .catch(function () {
        if (cells.isConnected) cells.textContent = 'The row could not be read back.';
      });
  }

  /** Whether the error's text names the column (as a whole word: `MemoryGiB` is not `MemoryGiBs`). */
  function namesColumn(details, column) {
    if (!column) return false;
    var at = details.indexOf(column);
    while (at >= 0) {
      var before = at === 0 ? '' : details.charAt(at - 1);
      var after = details.charAt(at + column.length);
      if (!/[A-Za-z0-9_]/.test(before) && !/[A-Za-z0-9_]/.test(after)) return true;
      at = details.indexOf(column, at + 1);
    }
    return false;
  }

  var loadRowErrors = panel(function (current, state) {
    var table = $('row-errors');
    table.setAttribute('aria-busy', 'true');
    $('row-range').textContent = 'Loading…';
    return getJSON(jobPath(state.job) + '/rowErrors', {
      report: state.report,
      file: state.file,
      severity: state.severity,
      offset: state.offset,
      pageSize: state.size,
    }).then(function (page) {
      if (!current()) return;
      renderSeverityChoices(page.severityCounts, state);
      var tbody = clear(table.tBodies[0]);
      if (page.rowErrors.length === 0) {
        tbody.appendChild(
          h('tr', null, h('td', { colspan: 6, class: 'empty', text: page.reportPresent ? 'No row errors match.' : 'No ' + page.report + ' report.' })),
        );
      }
      var frag = document.createDocumentFragment();
      page.rowErrors.forEach(function (r) {
        frag.appendChild(
          h(
            'tr',
            {
              class: 'row-error',
              'data-severity': r.severity,
              tabindex: 0,
              'aria-label': 'Row ' + r.rowNumber + ' of ' + r.fileName + ': ' + r.severity,
              onclick: function () {
                showRowError(r);
              },
              onkeydown: function (ev) {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  showRowError(r);
                }
              },
            },
            h('td', { class: 'file', text: r.fileName + (r.sheet ? ' · ' + r.sheet : '') }),
            h('td', { class: 'num row-number', text: String(r.rowNumber) }),
            h('td', { text: r.vmName || r.assetTitle || '' }),
            h('td', null, h('code', { text: r.vmUuid || '' })),
            h('td', null, severityBadge(r.severity)),
            h('td', { class: 'details', text: r.errorDetails }),
          ),
        );
      });
      tbody.appendChild(frag);
      var total = page.totalSize;
      var first = total === 0 ? 0 : page.offset + 1;
      var last = page.offset + page.rowErrors.length;
      var pages = Math.max(1, Math.ceil(total / page.pageSize));
      var pageNo = Math.floor(page.offset / page.pageSize) + 1;
      $('row-range').textContent = 'Lines ' + num(first) + '–' + num(last) + ' of ' + num(total) + ' · page ' + num(pageNo) + ' of ' + num(pages);
      var pager = $('row-pager');
      pager.querySelector('[data-go="first"]').disabled = page.offset === 0;
      pager.querySelector('[data-go="prev"]').disabled = page.offset === 0;
      pager.querySelector('[data-go="next"]').disabled = page.nextOffset === undefined;
      pager.querySelector('[data-go="last"]').disabled = page.nextOffset === undefined;
      pager.setAttribute('data-total', String(total));
      table.removeAttribute('aria-busy');
    });
  });

  var assetsPager;
  var loadAssets = panel(function (current, jobName) {
    return getJSON(API + '/assets', { importJob: jobName, pageToken: assetsPager.current(), pageSize: 25 }).then(function (page) {
      if (!current()) return;
      // A job that has not run produced no assets (the console route lists none for it).
      var ran = !(detail && detail.name === jobName && !detail.executionReport);
      $('assets-reporter').textContent = page.reporter && ran ? '(reported by ' + page.reporter + ')' : '';
      var tbody = clear($('assets').tBodies[0]);
      var items = page.assets || [];
      if (items.length === 0)
        tbody.appendChild(
          h('tr', null, h('td', { colspan: 7, class: 'empty', text: ran ? 'No assets from this import.' : 'This import has not run: it produced no assets.' })),
        );
      items.forEach(function (a) {
        var vm = a.virtualMachineDetails || {};
        tbody.appendChild(
          h(
            'tr',
            { class: 'asset', 'data-name': a.name },
            h(
              'td',
              null,
              h('div', { class: 'asset-title', text: a.title || vm.vmName || lastSegment(a.name) }),
              h('div', { class: 'muted name', text: lastSegment(a.name) }),
            ),
            h('td', null, h('code', { text: vm.vmUuid || (a.attributes && a.attributes.MachineId) || '' })),
            h('td', { class: 'num', text: num(vm.coreCount) }),
            h('td', { class: 'num', text: num(vm.memoryMb) }),
            h('td', { class: 'os', text: [G.osFamilyName(vm.osFamily), vm.osName, vm.osVersion].filter(Boolean).join(' ') }),
            h(
              'td',
              null,
              (a.sources || []).map(function (s) {
                return h('div', { class: 'muted', text: lastSegment(s) });
              }),
            ),
            h('td', null, time(a.updateTime)),
          ),
        );
      });
      assetsPager.render(items.length, page.nextPageToken);
    });
  });

  var shownJob = '';
  var loadJob = panel(function (current, state) {
    return getJSON(jobPath(state.job)).then(function (job) {
      if (!current()) return;
      detail = job;
      $('job-section').hidden = false;
      renderJobHeader(job, state);
      if (shownJob !== job.name) {
        shownJob = job.name;
        assetsPager.reset();
        loadAssets(job.name);
      }
    });
  });

  // ---------------------------------------------------------------- routing

  var lastDetailKey = '';
  function route() {
    clearError();
    var state = readState();
    [].forEach.call(document.querySelectorAll('#jobs tbody tr'), function (tr) {
      tr.classList.toggle('selected', tr.getAttribute('data-name') === state.job);
    });
    if (!state.job) {
      $('job-section').hidden = true;
      shownJob = '';
      lastDetailKey = '';
      return;
    }
    // The row-error page first: it is what the reader waits for. The job's details are fetched
    // when another job is opened (or on Refresh); switching report, file or page re-renders them.
    loadRowErrors(state);
    if (state.job !== lastDetailKey || !detail || detail.name !== state.job) {
      if (!detail || detail.name !== state.job) {
        // Another job: show its section at once (the rows may arrive before the details).
        detail = undefined;
        $('job-section').hidden = false;
        $('job-title').textContent = 'Import job ' + lastSegment(state.job);
        clear($('job-meta'));
        clear($('report-summary'));
      }
      lastDetailKey = state.job;
      loadJob(state);
    } else {
      renderJobHeader(detail, state);
    }
  }

  /**
   * Another view can change what this page shows (an import adds a job and assets; a deletion
   * removes them): the header's counts are read again whenever the view changes, and the
   * overview's lists when it is opened again. Moving within one view only re-routes.
   */
  var shownView = '';
  function onHashChange() {
    var view = G.params().get('view') || '';
    if (view !== shownView) {
      shownView = view;
      refreshCounts();
      if (!view) {
        loadPolicies();
        loadJobs();
      }
    }
    route();
  }

  function reloadAll() {
    clearError();
    detail = undefined;
    lastDetailKey = '';
    shownJob = '';
    refreshCounts();
    if (onOverview()) {
      loadPolicies();
      loadJobs();
    }
    route();
  }

  function init() {
    policiesPager = new TokenPager($('policies-pager'), function () {
      loadPolicies();
    });
    jobsPager = new TokenPager($('jobs-pager'), function () {
      loadJobs();
    });
    assetsPager = new TokenPager($('assets-pager'), function () {
      loadAssets(shownJob);
    });

    $('refresh').addEventListener('click', reloadAll);
    window.addEventListener('hashchange', onHashChange);
    document.addEventListener('gnl:changed', function () {
      refreshCounts();
    });

    $('report-tabs').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-report]');
      if (!b || b.disabled) return;
      var state = readState();
      state.report = b.getAttribute('data-report');
      state.file = '';
      state.severity = '';
      state.offset = 0;
      writeState(state);
    });

    $('row-filters').addEventListener('change', function () {
      var state = readState();
      state.file = $('filter-file').value;
      state.severity = $('filter-severity').value;
      state.size = parseInt($('filter-size').value, 10) || 50;
      state.offset = 0;
      writeState(state);
    });
    $('row-filters').addEventListener('submit', function (ev) {
      ev.preventDefault();
    });

    $('row-pager').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-go]');
      if (!b || b.disabled) return;
      var state = readState();
      var total = parseInt($('row-pager').getAttribute('data-total') || '0', 10);
      var go = b.getAttribute('data-go');
      if (go === 'first') state.offset = 0;
      else if (go === 'prev') state.offset = Math.max(0, state.offset - state.size);
      else if (go === 'next') state.offset = state.offset + state.size;
      else if (go === 'last') state.offset = Math.max(0, Math.floor((total - 1) / state.size) * state.size);
      writeState(state);
    });

    shownView = G.params().get('view') || '';
    reloadAll();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
