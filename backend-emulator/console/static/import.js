// @ts-check
/*
 * The console's import page (#view=import): the whole Migration Center import through the public
 * REST API, as a script against Google would do it:
 *   sources.create (or an existing source) -> importJobs.create -> one importDataFiles.create per
 *   file -> PUT of the bytes to uploadFileInfo.signedUri with its headers (XMLHttpRequest, for the
 *   upload progress events) -> importJobs.validate -> importJobs.run on request.
 * The job's state is polled with importJobs.get; the report's counts come from the console's
 * read-only job route (the same numbers as the job view), so 100,000 row errors are never fetched.
 */
(function () {
  'use strict';

  var G = window.GNL;
  var h = G.h;
  var $ = G.$;

  var FORMATS = G.constants.formats;
  var NEW_SOURCE = '__new__';
  var DONE_STATES = ['IMPORT_JOB_STATE_READY', 'IMPORT_JOB_STATE_FAILED_VALIDATION', 'IMPORT_JOB_STATE_COMPLETED', 'IMPORT_JOB_STATE_FAILED'];

  var job = ''; // the job this page created
  var busy = false;

  function parent() {
    return 'projects/' + $('imp-project').value.trim() + '/locations/' + $('imp-location').value.trim();
  }

  function status(text) {
    $('imp-status').textContent = text;
  }

  /** Two chosen files that the one id rule names alike, as a sentence; '' when every id is its own (as the CLI refuses). */
  function sameIds(files) {
    var seen = {};
    for (var i = 0; i < files.length; i++) {
      var id = G.dataFileId(files[i].name);
      if (Object.prototype.hasOwnProperty.call(seen, id))
        return files[i].name + ' and ' + seen[id] + ' give the same data file id ' + id + ': rename one of them.';
      seen[id] = files[i].name;
    }
    return '';
  }

  function loadSources() {
    var select = $('imp-source');
    var keep = select.value;
    // No project or location yet (an empty emulator): only a new source can be chosen.
    var listed =
      $('imp-project').value.trim() && $('imp-location').value.trim()
        ? G.request('GET', G.v1alpha1(parent()) + '/sources', { pageSize: 100 })
        : Promise.resolve({});
    return listed
      .then(function (page) {
        G.clear(select);
        (page.sources || []).forEach(function (src) {
          select.appendChild(
            h('option', { value: src.name, text: src.displayName ? src.displayName + ' (' + G.lastSegment(src.name) + ')' : G.lastSegment(src.name) }),
          );
        });
        select.appendChild(h('option', { value: NEW_SOURCE, text: 'New source…' }));
        select.value = [].some.call(select.options, function (o) {
          return o.value === keep;
        })
          ? keep
          : select.options[0].value;
        $('imp-new-source-label').hidden = select.value !== NEW_SOURCE;
      })
      .catch(G.notice);
  }

  /** The file picker's files and the dropped ones, shown as the list to upload. */
  var chosen = [];
  function setFiles(list) {
    chosen = [].slice.call(list);
    var ul = G.clear($('imp-file-list'));
    chosen.forEach(function (f, i) {
      ul.appendChild(
        h(
          'li',
          { class: 'upload', 'data-file': f.name },
          h('span', { class: 'upload-name', text: f.name }),
          h('span', { class: 'muted', text: ' ' + G.num(f.size) + ' bytes ' }),
          h('progress', { id: 'imp-progress-' + i, max: f.size || 1, value: 0, 'aria-label': 'Upload of ' + f.name }),
          h('span', { class: 'upload-state', id: 'imp-upload-state-' + i, text: 'waiting' }),
        ),
      );
    });
    // A workbook suggests its format; a user can still choose another one.
    if (
      chosen.length &&
      chosen.every(function (f) {
        return /\.xlsx$/i.test(f.name);
      })
    )
      $('imp-format').value = 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX';
  }

  /** PUT of one file to its signed URL, with the signed headers, reporting progress. */
  function upload(file, info, index) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      var bar = $('imp-progress-' + index);
      var state = $('imp-upload-state-' + index);
      xhr.open('PUT', info.signedUri);
      Object.keys(info.headers || {}).forEach(function (k) {
        xhr.setRequestHeader(k, info.headers[k]);
      });
      xhr.upload.onprogress = function (ev) {
        if (ev.lengthComputable) bar.value = ev.loaded;
        state.textContent = G.num(ev.loaded) + ' bytes sent';
      };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) {
          bar.value = bar.max;
          state.textContent = 'uploaded';
          resolve();
        } else {
          var message = xhr.statusText;
          try {
            message = JSON.parse(xhr.responseText).error.message;
          } catch (e) {
            /* not Google's error shape: the status text */
          }
          state.textContent = 'failed';
          reject(new Error('upload of ' + file.name + ': ' + xhr.status + ' ' + message));
        }
      };
      xhr.onerror = function () {
        state.textContent = 'failed';
        reject(new Error('upload of ' + file.name + ': the connection failed'));
      };
      state.textContent = 'uploading';
      xhr.send(file);
    });
  }

  function source() {
    var select = $('imp-source');
    if (select.value !== NEW_SOURCE) return Promise.resolve(select.value);
    var id = $('imp-new-source').value.trim();
    status('Creating source ' + id + '…');
    return G.request('POST', G.v1alpha1(parent()) + '/sources', { sourceId: id }, { displayName: id, type: 'SOURCE_TYPE_UPLOAD' })
      .then(G.waitOperation)
      .then(function () {
        return parent() + '/sources/' + id;
      });
  }

  /**
   * Follows a :validate or :run Operation, showing its status message (rows read, assets written)
   * as the server reports it. How it ended is the job's state, read next: an Operation error (a
   * cancelled run) is not this step's to show.
   */
  function followWork(op, doing) {
    return G.waitOperation(op, function (message) {
      status(doing + ': ' + message + '…');
    }).catch(function () {
      return undefined;
    });
  }

  /** Polls importJobs.get until the job leaves VALIDATING / RUNNING; shows each state seen. */
  function waitJob(name) {
    return G.request('GET', G.v1alpha1(name)).then(function (j) {
      showState(j.state);
      if (DONE_STATES.indexOf(j.state) >= 0) return j;
      return G.sleep(250).then(function () {
        return waitJob(name);
      });
    });
  }

  function showState(state) {
    var el = $('imp-state');
    el.textContent = String(state || '').replace(/^IMPORT_JOB_STATE_/, '');
    el.className = 'state state-' + el.textContent.toLowerCase();
    $('imp-run').disabled = busy || state !== 'IMPORT_JOB_STATE_READY';
  }

  /**
   * One file's counts from a wire report (ProtoJSON: an absent list is empty): rows with errors,
   * their errors by severity, file errors.
   */
  function fileCounts(f) {
    var bySeverity = { ERROR: 0, WARNING: 0, INFO: 0 };
    (f.rowErrors || []).forEach(function (r) {
      (r.errors || []).forEach(function (e) {
        bySeverity[e.severity] = (bySeverity[e.severity] || 0) + 1;
      });
    });
    return { fileName: f.fileName, rowErrors: (f.rowErrors || []).length, bySeverity: bySeverity, fileErrorCount: (f.fileErrors || []).length };
  }

  /** The report's counts per file, from importJobs.get (FULL view, the public API); a link to its rows. */
  function showReport(name) {
    return G.request('GET', G.v1alpha1(name), { view: 'IMPORT_JOB_VIEW_FULL' }).then(function (job) {
      var out = G.clear($('imp-report'));
      var exec = job.executionReport;
      var kind = exec ? 'execution' : 'validation';
      var report = exec ? exec.executionErrors || {} : job.validationReport;
      if (!report) return;
      out.appendChild(h('h3', { text: (kind === 'execution' ? 'Execution' : 'Validation') + ' report' }));
      if (kind === 'execution')
        out.appendChild(
          h('p', { id: 'imp-frames', text: G.num(exec.framesReported || 0) + ' frames reported · ' + G.num(exec.totalRowsCount || 0) + ' rows read' }),
        );
      (report.jobErrors || []).forEach(function (e) {
        out.appendChild(h('p', { class: 'sev-line' }, h('span', { class: 'sev sev-' + e.severity.toLowerCase(), text: e.severity }), ' ', e.errorDetails));
      });
      out.appendChild(
        h(
          'table',
          { class: 'grid compact', id: 'imp-report-files' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { text: 'File' }),
              h('th', { class: 'num', text: 'Rows with errors' }),
              h('th', { text: 'By severity' }),
              h('th', { text: 'File errors' }),
            ),
          ),
          h(
            'tbody',
            null,
            (report.fileValidations || []).map(fileCounts).map(function (f) {
              return h(
                'tr',
                { 'data-file': f.fileName },
                h('td', { text: f.fileName }),
                h('td', { class: 'num', text: G.num(f.rowErrors) }),
                h('td', {
                  text:
                    ['ERROR', 'WARNING', 'INFO']
                      .filter(function (s) {
                        return f.bySeverity[s];
                      })
                      .map(function (s) {
                        return G.severityCount(f.bySeverity[s], s);
                      })
                      .join(' · ') || '—',
                }),
                h('td', { text: G.num(f.fileErrorCount) }),
              );
            }),
          ),
        ),
      );
      out.appendChild(
        h(
          'p',
          null,
          h('a', {
            id: 'imp-open-report',
            href: '#' + new URLSearchParams({ job: name, report: kind }).toString(),
            text: 'Open the ' + kind + ' report (row errors)',
          }),
        ),
      );
    });
  }

  function inventoryLink(src) {
    var out = $('imp-report');
    out.appendChild(
      h(
        'p',
        null,
        h('a', {
          id: 'imp-open-inventory',
          href: '#' + new URLSearchParams({ view: 'inventory', parent: parent(), filter: 'sources:"' + src + '"' }).toString(),
          text: 'See the imported assets in the inventory',
        }),
      ),
    );
  }

  var jobSource = '';
  function start(ev) {
    ev.preventDefault();
    if (busy) return;
    if (!chosen.length) {
      G.notice(new Error('Choose or drop at least one file to import.'));
      return;
    }
    var clash = sameIds(chosen);
    if (clash) {
      G.notice(new Error(clash));
      return;
    }
    busy = true;
    $('imp-start').disabled = true;
    $('notice').hidden = true;
    G.clear($('imp-report'));
    var p = parent();
    G.rememberParent(p);
    var jobId = $('imp-job-id').value.trim();
    var format = $('imp-format').value;
    source()
      .then(function (src) {
        jobSource = src;
        status('Creating import job ' + jobId + '…');
        return G.request(
          'POST',
          G.v1alpha1(p) + '/importJobs',
          { importJobId: jobId },
          { assetSource: src, displayName: $('imp-display').value.trim() || undefined },
        ).then(G.waitOperation);
      })
      .then(function (created) {
        job = (created && created.name) || p + '/importJobs/' + jobId;
        G.changed();
        $('imp-job-name').textContent = job;
        showState('IMPORT_JOB_STATE_PENDING');
        // One data file per file, uploaded one after the other (each with its own progress bar).
        return chosen.reduce(function (prev, file, i) {
          return prev.then(function () {
            status('Uploading ' + file.name + '…');
            return G.request(
              'POST',
              G.v1alpha1(job) + '/importDataFiles',
              { importDataFileId: G.dataFileId(file.name) },
              { displayName: file.name, format: format },
            )
              .then(G.waitOperation)
              .then(function (dataFile) {
                return upload(file, dataFile.uploadFileInfo, i);
              });
          });
        }, Promise.resolve());
      })
      .then(function () {
        status('Validating…');
        return G.request('POST', G.v1alpha1(job, 'validate'), null, {});
      })
      .then(function (op) {
        return followWork(op, 'Validating');
      })
      .then(function () {
        return waitJob(job);
      })
      .then(function (j) {
        busy = false;
        showState(j.state);
        status(
          j.state === 'IMPORT_JOB_STATE_READY'
            ? 'Validated: no blocking errors. Run the import to create the assets.'
            : 'Validation found blocking errors: open the report.',
        );
        return showReport(job);
      })
      .catch(function (err) {
        busy = false;
        status('Stopped.');
        G.notice(err);
      })
      .then(function () {
        $('imp-start').disabled = false;
      });
  }

  function run() {
    if (!job || busy) return;
    busy = true;
    $('imp-run').disabled = true;
    status('Running…');
    G.request('POST', G.v1alpha1(job, 'run'), null, {})
      .then(function (op) {
        return followWork(op, 'Running');
      })
      .then(function () {
        return waitJob(job);
      })
      .then(function (j) {
        busy = false;
        showState(j.state);
        status(j.state === 'IMPORT_JOB_STATE_COMPLETED' ? 'Import completed.' : 'The run failed: open the report.');
        G.changed();
        return showReport(job).then(function () {
          inventoryLink(jobSource);
        });
      })
      .catch(function (err) {
        busy = false;
        G.notice(err);
      });
  }

  var ready = false;
  function setup() {
    ready = true;
    var formats = $('imp-format');
    FORMATS.forEach(function (f) {
      formats.appendChild(h('option', { value: f[0], text: f[1] }));
    });
    $('imp-job-id').value =
      'import-' +
      new Date()
        .toISOString()
        .slice(0, 19)
        .toLowerCase()
        .replace(/[^0-9t]/g, '')
        .replace('t', '-');
    $('imp-source').addEventListener('change', function () {
      $('imp-new-source-label').hidden = $('imp-source').value !== NEW_SOURCE;
    });
    ['imp-project', 'imp-location'].forEach(function (id) {
      $(id).addEventListener('change', loadSources);
    });
    $('imp-files').addEventListener('change', function () {
      setFiles($('imp-files').files);
    });
    var zone = $('imp-drop');
    zone.addEventListener('dragover', function (ev) {
      ev.preventDefault();
      zone.classList.add('over');
    });
    zone.addEventListener('dragleave', function () {
      zone.classList.remove('over');
    });
    zone.addEventListener('drop', function (ev) {
      ev.preventDefault();
      zone.classList.remove('over');
      setFiles(ev.dataTransfer.files);
    });
    $('import-form').addEventListener('submit', start);
    $('imp-run').addEventListener('click', run);
  }

  G.views['import'] = function () {
    var first = !ready;
    if (!ready) setup();
    if (!first || $('imp-project').value) {
      loadSources();
      return;
    }
    // First shown: the project and location of the data the emulator holds (the last used in
    // this tab first), or empty fields on an empty emulator.
    G.defaultParent().then(function (last) {
      var m = /^projects\/([^/]+)\/locations\/([^/]+)$/.exec(last);
      if (m && !$('imp-project').value && !$('imp-location').value) {
        $('imp-project').value = m[1];
        $('imp-location').value = m[2];
      }
      loadSources();
    });
  };
})();
