// @ts-check
/*
 * The console's shared helpers, for its Migration Center views (import, inventory, asset, summary;
 * groups, preference sets, reports) and app.js's overview (policies, jobs, one job's report):
 * building elements (values always as text, never HTML), calling the public REST API with the
 * token of --auth, waiting for operations, the project/location fields of a view, and the view
 * router of the URL fragment (#view=import|inventory|asset|summary|groups|...&...). Plain ES5, no
 * build step; exposed as window.GNL.
 */
(function () {
  'use strict';

  /** The constants of the TypeScript (constants.js, generated; loaded first). */
  var CONSTANTS = window.GNL_CONSTANTS;
  var TOKEN_KEY = 'google-native-local.console.token';

  function $(id) {
    return document.getElementById(id);
  }

  function append(el, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child))
      child.forEach(function (c) {
        append(el, c);
      });
    else if (typeof child === 'string' || typeof child === 'number') el.appendChild(document.createTextNode(String(child)));
    else el.appendChild(child);
  }

  /** h('td', {class: 'x', text: 'value'}, child, ...): attributes and text are set, never parsed. */
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === undefined || v === null || v === false) return;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = v;
        else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }

  /**
   * A definition list (dl.meta) of [term, value] rows, leaving out the rows with no value: a value
   * that is an element (a link, a code, a time) is put in as it is, any other as text.
   */
  function definitions(rows) {
    return h(
      'dl',
      { class: 'meta' },
      rows
        .filter(function (r) {
          return r[1] !== undefined && r[1] !== null && r[1] !== '';
        })
        .map(function (r) {
          return [h('dt', { text: r[0] }), r[1] instanceof window.Node ? h('dd', null, r[1]) : h('dd', { text: String(r[1]) })];
        }),
    );
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }

  function num(n) {
    var v = typeof n === 'string' && n !== '' ? Number(n) : n;
    return typeof v === 'number' && isFinite(v) ? v.toLocaleString('en-US') : '';
  }

  function lastSegment(name) {
    return String(name).slice(String(name).lastIndexOf('/') + 1);
  }

  function token() {
    try {
      return sessionStorage.getItem(TOKEN_KEY) || '';
    } catch (e) {
      return '';
    }
  }

  function setToken(value) {
    try {
      if (value) sessionStorage.setItem(TOKEN_KEY, value);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch (e) {
      /* private mode: nothing kept */
    }
  }

  /**
   * A token given in the address (`/#token=TOKEN`) is kept for the session and taken out of the
   * address (not left in the history), before any view makes its first request with it.
   */
  function takeTokenFromAddress() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ''));
    var t = p.get('token');
    if (!t) return;
    setToken(t);
    var field = /** @type {HTMLInputElement | null} */ (document.getElementById('token-field'));
    if (field) field.value = t;
    p.delete('token');
    history.replaceState(null, '', location.pathname + location.search + (p.toString() ? '#' + p.toString() : ''));
  }
  takeTokenFromAddress();
  window.addEventListener('hashchange', takeTokenFromAddress);

  /** An error answer of the API: HTTP status, Google's status name, message. */
  function ApiError(status, message, code) {
    this.status = status;
    this.code = code;
    this.message = (code ? code + ': ' : '') + message;
  }

  /** One REST call: JSON in and out, the token as a bearer header, errors as ApiError. */
  function request(method, path, params, body) {
    var url = new URL(path, location.origin);
    Object.keys(params || {}).forEach(function (k) {
      var v = params[k];
      if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
    });
    var headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token()) headers.Authorization = 'Bearer ' + token();
    return fetch(url.toString(), { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
      return res.text().then(function (text) {
        var json;
        try {
          json = text ? JSON.parse(text) : {};
        } catch (e) {
          json = undefined;
        }
        if (!res.ok) {
          var err = (json && json.error) || {};
          throw new ApiError(res.status, err.message || res.statusText, err.status);
        }
        return json;
      });
    });
  }

  /** The REST path of a resource name: /v1alpha1/projects/P/locations/L/... (segments escaped). */
  function v1alpha1(name, verb) {
    return '/v1alpha1/' + String(name).split('/').map(encodeURIComponent).join('/') + (verb ? ':' + verb : '');
  }

  /** Tells the other views that resources were created or changed here (the header's counts). */
  function changed() {
    document.dispatchEvent(new Event('gnl:changed'));
  }

  function sleep(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, ms);
    });
  }

  /** Polls an Operation until done; resolves to its response, rejects with its error. */
  function waitOperation(op, onStatus) {
    if (onStatus && op.metadata && op.metadata.statusMessage) onStatus(op.metadata.statusMessage);
    if (op.done) {
      if (op.error) return Promise.reject(new ApiError(0, op.error.message || 'operation failed', 'OPERATION_FAILED'));
      return Promise.resolve(op.response);
    }
    return sleep(200).then(function () {
      return request('GET', v1alpha1(op.name)).then(function (next) {
        return waitOperation(next, onStatus);
      });
    });
  }

  function notice(err) {
    var el = $('notice');
    var text = err && err.message ? err.message : String(err);
    if (err && (err.status === 401 || err.status === 403)) text += ' — this emulator runs with --auth: enter a token in the Token field.';
    el.textContent = text;
    el.hidden = false;
  }

  // ---------------------------------------------------------------- views

  var views = {};

  function params() {
    return new URLSearchParams(location.hash.replace(/^#/, ''));
  }

  /**
   * Sets the fragment to the view and its parameters (empty values left out); `replace` swaps the
   * current history entry (a view that fills in its default parameters leaves no entry that Back
   * would return to, only to be sent forward again).
   */
  function go(view, values, replace) {
    var p = new URLSearchParams();
    p.set('view', view);
    Object.keys(values || {}).forEach(function (k) {
      if (values[k] !== undefined && values[k] !== null && values[k] !== '') p.set(k, String(values[k]));
    });
    if (replace) location.replace('#' + p.toString());
    else location.hash = p.toString();
  }

  function route() {
    var p = params();
    var view = p.get('view') || '';
    var known = Object.prototype.hasOwnProperty.call(views, view);
    // The overview (policies, jobs, one job's report) is app.js's page: shown when no view is named.
    document.body.setAttribute('data-view', known ? view : 'overview');
    Object.keys(views).forEach(function (k) {
      $(k + '-view').hidden = k !== view;
    });
    [].forEach.call(document.querySelectorAll('header.top nav a[data-view]'), function (a) {
      if (a.getAttribute('data-view') === (known ? view : 'overview')) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
    if (known) views[view](p);
  }

  /** The project/location parent last used, kept for the views that need one. */
  var PARENT_KEY = 'google-native-local.console.parent';
  function lastParent() {
    try {
      return sessionStorage.getItem(PARENT_KEY) || '';
    } catch (e) {
      return '';
    }
  }
  function rememberParent(parent) {
    try {
      sessionStorage.setItem(PARENT_KEY, parent);
    } catch (e) {
      /* not kept */
    }
  }

  function parentOfName(name) {
    var m = /^(projects\/[^/]+\/locations\/[^/]+)\//.exec(String(name || ''));
    return m ? m[1] : '';
  }

  /**
   * The project/location a view opens on when the address names none: the last one used in this
   * tab if it holds assets, else where the emulator's first asset is, else its first import job's,
   * else the last one used (even empty), else '' (the view shows its empty state). The console's
   * own routes list every project; with --auth and a token that is not an admin's they answer
   * 403, and only the last parent is left.
   */
  function defaultParent() {
    var last = lastParent();
    function first(path, key) {
      return request('GET', path, { pageSize: 1 }).then(
        function (page) {
          return parentOfName(((page && page[key]) || [])[0] && page[key][0].name);
        },
        function () {
          return '';
        },
      );
    }
    var lastHasAssets = last
      ? request('GET', v1alpha1(last) + '/assets', { pageSize: 1 }).then(
          function (page) {
            return (page.assets || []).length > 0;
          },
          function () {
            return false;
          },
        )
      : Promise.resolve(false);
    return lastHasAssets.then(function (has) {
      if (has) return last;
      return first('/emulator/v1/console/assets', 'assets').then(function (p) {
        return (
          p ||
          first('/emulator/v1/console/importJobs', 'importJobs').then(function (q) {
            return q || last;
          })
        );
      });
    });
  }

  /** A form field of a view (a text input). */
  function input(id) {
    return /** @type {HTMLInputElement} */ ($(id));
  }

  /**
   * The project and location fields of a view, from the address. Without a parent in the address
   * the view opens on defaultParent() (a project/location with data), by rewriting the address;
   * resolves to false then, or when there is none (the fields stay empty: the view's empty state).
   */
  function parentControls(prefix, view, p, onChange) {
    if (!$(prefix + '-form').getAttribute('data-ready')) {
      $(prefix + '-form').setAttribute('data-ready', 'true');
      $(prefix + '-form').addEventListener('submit', function (ev) {
        ev.preventDefault();
        onChange();
      });
    }
    var m = /^projects\/([^/]+)\/locations\/([^/]+)$/.exec(p.get('parent') || '');
    input(prefix + '-project').value = m ? m[1] : '';
    input(prefix + '-location').value = m ? m[2] : '';
    if (p.get('parent')) return Promise.resolve(true);
    return defaultParent().then(function (parent) {
      if (!parent || params().get('view') !== view || params().get('parent')) return false;
      var values = {};
      p.forEach(function (v, k) {
        if (k !== 'view') values[k] = v;
      });
      values.parent = parent;
      go(view, values, true);
      return false;
    });
  }

  /** `projects/P/locations/L` of a view's project and location fields (`PREFIX-project`, `PREFIX-location`). */
  function parentFromForm(prefix) {
    return 'projects/' + input(prefix + '-project').value.trim() + '/locations/' + input(prefix + '-location').value.trim();
  }

  /** `1 error`, `7 errors`: a count and its noun, plural when it is not one. */
  function plural(n, noun) {
    return num(n) + ' ' + noun + (Number(n) === 1 ? '' : 's');
  }

  /** `1 error`, `7 errors`, `3 warnings`, `2 info` (a severity count: info is not counted in the plural). */
  function severityCount(n, severity) {
    var noun = String(severity).toLowerCase();
    return noun === 'info' ? num(n) + ' info' : plural(n, noun);
  }

  /** Human names of Google's OsFamily values (the API's enum names are for filters, not for reading). */
  var OS_FAMILY_NAMES = CONSTANTS.osFamilyNames;
  function osFamilyName(value) {
    if (!value) return '';
    return Object.prototype.hasOwnProperty.call(OS_FAMILY_NAMES, value) ? OS_FAMILY_NAMES[value] : String(value);
  }

  /**
   * The data file id of a file name: the steps of the TypeScript's one rule (schemas/data-file-id.ts,
   * through constants.js), so the console names a file as the `import` command and the provider do.
   */
  function dataFileId(fileName) {
    var id = String(fileName);
    CONSTANTS.dataFileIdSteps.forEach(function (step) {
      if ('replace' in step) id = id.replace(new RegExp(step.replace, step.flags), step.with);
      else if ('lowercase' in step) id = id.toLowerCase();
      else if ('unlessMatches' in step) id = new RegExp(step.unlessMatches).test(id) ? id : step.prefix + id;
      else id = id.slice(0, step.cut);
    });
    return id;
  }

  function start() {
    var field = /** @type {HTMLInputElement} */ ($('token-field'));
    field.value = token();
    field.addEventListener('change', function () {
      setToken(field.value.trim());
    });
    window.addEventListener('hashchange', route);
    route();
  }

  window.GNL = {
    $: $,
    h: h,
    append: append,
    definitions: definitions,
    clear: clear,
    num: num,
    lastSegment: lastSegment,
    token: token,
    request: request,
    v1alpha1: v1alpha1,
    waitOperation: waitOperation,
    changed: changed,
    sleep: sleep,
    notice: notice,
    views: views,
    params: params,
    go: go,
    lastParent: lastParent,
    rememberParent: rememberParent,
    parentOfName: parentOfName,
    defaultParent: defaultParent,
    parentControls: parentControls,
    parentFromForm: parentFromForm,
    plural: plural,
    severityCount: severityCount,
    osFamilyName: osFamilyName,
    dataFileId: dataFileId,
    constants: CONSTANTS,
  };

  // After every deferred script (the views register themselves as they load).
  if (document.readyState === 'complete') start();
  else document.addEventListener('DOMContentLoaded', start);
})();
