/* The hosted card form. Card data goes only to this origin's /sessions/{id}/card (a stored card's security code to /sessions/{id}/stored-card). */
(function () {
  'use strict';
  var parts = location.pathname.split('/');
  var sessionId = decodeURIComponent(parts[parts.length - 1] || '');
  var query = new URLSearchParams(location.search);
  var embedded = query.get('embedded') === '1';
  // Who may hear the page: the session's allowed origins, from the server, never from the URL (anyone
  // can write a query string) and never '*'. Until the status arrives, nobody.
  var parentOrigins = [];
  var FINAL = { captured: true, authorized: true, failed: true, canceled: true };

  var $ = function (id) { return document.getElementById(id); };
  var form = $('card-form'), notice = $('notice'), pay = $('pay');
  var inputs = { number: $('number'), expiry: $('expiry'), cvc: $('cvc'), name: $('name') };
  var session = null;
  var storedForm = $('stored-form'), confirmButton = $('confirm'), storedCvc = $('stored-cvc');

  function formatAmount(minor, currency) {
    try {
      var fmt = new Intl.NumberFormat(undefined, { style: 'currency', currency: currency });
      var digits = fmt.resolvedOptions().maximumFractionDigits;
      return fmt.format(minor / Math.pow(10, digits));
    } catch (e) { return minor + ' ' + currency; }
  }

  function digitsOf(value) { return value.replace(/\D/g, ''); }

  function setError(field, message) {
    var input = inputs[field];
    var out = $(field + '-error');
    if (out) out.textContent = message || '';
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  function parseExpiry(value) {
    var m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
    if (!m) return null;
    var month = Number(m[1]), year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    return { month: month, year: year };
  }

  function validate(field) {
    var digits = digitsOf(inputs.number.value);
    var brand = CardBrand.detect(digits);
    if (field === 'number') {
      if (!digits) return 'Enter the card number.';
      if (brand.lengths.indexOf(digits.length) < 0 || !CardBrand.luhn(digits)) return 'This card number is not valid.';
    }
    if (field === 'expiry') {
      var e = parseExpiry(inputs.expiry.value);
      if (!e || e.month < 1 || e.month > 12) return 'Enter the expiry as MM/YY.';
      var now = new Date();
      if (e.year < now.getFullYear() || (e.year === now.getFullYear() && e.month < now.getMonth() + 1)) return 'This card has expired.';
    }
    if (field === 'cvc') {
      var cvc = inputs.cvc.value.trim();
      if (!/^\d+$/.test(cvc) || brand.cvcLengths.indexOf(cvc.length) < 0) {
        return 'Enter the ' + brand.cvcLengths.join(' or ') + '-digit security code.';
      }
    }
    if (field === 'name' && inputs.name.value.trim().length > 100) return 'The name is too long.';
    return '';
  }

  function showBrand() {
    var digits = digitsOf(inputs.number.value);
    var brand = CardBrand.detect(digits);
    var el = $('brand');
    el.textContent = digits.length >= 1 ? brand.label : '';
    el.setAttribute('data-brand', brand.scheme);
    // Group digits as typed: 4-6-5 for American Express, groups of four otherwise.
    var groups = brand.scheme === 'AMEX' ? [4, 6, 5] : [4, 4, 4, 4, 3];
    var out = [], i = 0;
    for (var g = 0; g < groups.length && i < digits.length; g++) { out.push(digits.slice(i, i + groups[g])); i += groups[g]; }
    var formatted = out.join(' ');
    if (formatted !== inputs.number.value) inputs.number.value = formatted;
    inputs.cvc.maxLength = brand.scheme === 'AMEX' || brand.scheme === 'UNKNOWN' ? 4 : 3;
  }

  Object.keys(inputs).forEach(function (field) {
    inputs[field].addEventListener('blur', function () { if (inputs[field].value) setError(field, validate(field)); });
    inputs[field].addEventListener('input', function () {
      if (field === 'number') showBrand();
      if (inputs[field].getAttribute('aria-invalid') === 'true') setError(field, validate(field));
    });
  });

  // One post per allowed origin: the browser delivers it only if the parent is on that origin, so a
  // parent on any other origin hears nothing (and frame-ancestors keeps it from framing the page at all).
  function post(message) {
    if (!embedded || window.parent === window) return;
    parentOrigins.forEach(function (origin) { window.parent.postMessage(message, origin); });
  }

  function learnOrigins(status) {
    if (Array.isArray(status.allowed_origins)) parentOrigins = status.allowed_origins.filter(function (o) { return typeof o === 'string' && o !== '*'; });
  }

  function showResult(outcome, title, detail) {
    form.hidden = true;
    storedForm.hidden = true;
    notice.textContent = '';
    var result = $('result');
    result.hidden = false;
    result.setAttribute('data-outcome', outcome);
    $('result-title').textContent = title;
    $('result-detail').textContent = detail || '';
    $('result-title').focus();
    post({ type: 'vaultline.checkout.resize', height: document.body.scrollHeight });
  }

  // What the consumer reads for the failure reasons the orchestrator reports; an unknown code reads as the fallback.
  var FAILURE_TEXT = {
    card_declined: 'Your card was declined. Try another card or contact your bank.',
    insufficient_funds: 'Your card has insufficient funds.',
    session_expired: 'This payment session has expired; nothing was charged.',
    authentication_failed: 'Your card could not be authenticated.',
    processor_error: 'The payment provider could not be reached; nothing was charged.',
    risk_declined: 'The payment was declined.',
    capture_failed: 'The payment could not be completed.',
    payment_canceled: 'The shop canceled this payment; nothing was charged.'
  };
  var TITLES = { captured: 'Payment successful', authorized: 'Payment authorized', failed: 'Payment failed', canceled: 'Payment canceled' };

  // Only web addresses: a return_url of another scheme (javascript:, data:) is never followed.
  function returnTarget(status) {
    if (!status.return_url) return null;
    try {
      var target = new URL(status.return_url);
      if (target.protocol !== 'https:' && target.protocol !== 'http:') return null;
      target.searchParams.set('session_id', sessionId);
      target.searchParams.set('payment_id', status.payment_id);
      target.searchParams.set('payment_status', status.payment_status);
      return target.toString();
    } catch (e) { return null; }
  }

  function finish(status) {
    learnOrigins(status);
    var ok = status.payment_status === 'captured' || status.payment_status === 'authorized';
    showResult(ok ? 'success' : 'failure', TITLES[status.payment_status],
      ok ? (status.scheme ? status.scheme + ' ' : '') + (status.masked_account_number || '')
        : FAILURE_TEXT[status.payment_status === 'canceled' ? 'payment_canceled' : status.failure_reason] || 'The payment could not be completed.');
    post({ type: 'vaultline.checkout.complete', sessionId: sessionId, paymentId: status.payment_id, status: status.payment_status,
      failureReason: status.failure_reason || null });
    var target = returnTarget(status);
    if (target) {
      var link = $('return-link');
      link.href = target;
      link.hidden = false;
      if (!embedded) setTimeout(function () { location.assign(target); }, 3000);
    }
  }

  // An expired session is a known outcome: the orchestrator fails its payment with session_expired.
  function finishExpired() {
    finish(Object.assign({}, session, { payment_status: 'failed', failure_reason: 'session_expired' }));
  }

  // The merchant canceled the payment before a card was entered: its session is closed.
  function finishCanceled() {
    finish(Object.assign({}, session, { payment_status: 'canceled', failure_reason: 'payment_canceled' }));
  }

  function poll(attempt) {
    fetch('/sessions/' + encodeURIComponent(sessionId) + '/status', { headers: { Accept: 'application/json' } })
      .then(function (r) { return r.json(); })
      .then(function (status) {
        if (FINAL[status.payment_status]) return finish(status);
        showResult('pending', 'Processing your payment…', 'Please keep this page open.');
        if (attempt < 120) setTimeout(function () { poll(attempt + 1); }, attempt < 10 ? 500 : 1500);
      })
      .catch(function () { if (attempt < 120) setTimeout(function () { poll(attempt + 1); }, 2000); });
  }

  /** POSTs JSON to this session's route on this origin; resolves with the status and the JSON answer. */
  function postToSession(route, body) {
    return fetch('/sessions/' + encodeURIComponent(sessionId) + route, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (json) { return { status: r.status, json: json }; });
    });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    $('form-error').textContent = '';
    var firstBad = null;
    ['number', 'expiry', 'cvc', 'name'].forEach(function (field) {
      var message = validate(field);
      setError(field, message);
      if (message && !firstBad) firstBad = inputs[field];
    });
    if (firstBad) { firstBad.focus(); return; }
    var expiry = parseExpiry(inputs.expiry.value);
    var body = { card: { number: digitsOf(inputs.number.value), exp_month: String(expiry.month), exp_year: String(expiry.year),
      cvc: inputs.cvc.value.trim(), name: inputs.name.value.trim() || undefined } };
    pay.disabled = true;
    pay.textContent = 'Paying…';
    postToSession('/card', body).then(function (answer) {
      inputs.cvc.value = '';
      if (answer.status === 201 || answer.json.code === 'checkout_session_already_used') return poll(0);
      if (answer.json.code === 'checkout_session_expired') return finishExpired();
      if (answer.json.code === 'checkout_session_canceled') return finishCanceled();
      pay.disabled = false;
      pay.textContent = 'Pay ' + formatAmount(session.amount, session.currency);
      var field = (answer.json.field || '').replace(/^card\./, '');
      var map = { exp_month: 'expiry', exp_year: 'expiry', number: 'number', cvc: 'cvc', name: 'name' };
      if (map[field]) { setError(map[field], answer.json.detail); inputs[map[field]].focus(); }
      else $('form-error').textContent = answer.json.detail || 'The payment could not be started.';
    }).catch(function () {
      pay.disabled = false;
      $('form-error').textContent = 'Network problem; please try again.';
    });
  });

  // A stored card: only its masked number, expiry and name are shown; the security code, when the
  // payment needs it, goes to this origin's /sessions/{id}/stored-card like a new card's would.
  function storedCvcLength() { return session.stored_card.scheme === 'AMEX' ? 4 : 3; }

  function showStoredCard() {
    var card = session.stored_card;
    $('stored-card').textContent = (card.scheme ? card.scheme + ' ' : '') + card.masked_account_number + ', expires ' +
      String(card.expiry_month).padStart(2, '0') + '/' + String(card.expiry_year).slice(-2) + (card.cardholder_name ? ', ' + card.cardholder_name : '');
    $('stored-cvc-field').hidden = !card.security_code_required;
    storedCvc.maxLength = storedCvcLength();
    notice.textContent = card.security_code_required ? 'Pay with your saved card: enter its security code.' : 'Pay with your saved card.';
    confirmButton.textContent = 'Pay ' + formatAmount(session.amount, session.currency);
    storedForm.hidden = false;
    (card.security_code_required ? storedCvc : confirmButton).focus();
  }

  storedForm.addEventListener('submit', function (event) {
    event.preventDefault();
    $('stored-error').textContent = '';
    var body = {};
    if (session.stored_card.security_code_required) {
      var code = storedCvc.value.trim();
      if (!/^\d+$/.test(code) || code.length !== storedCvcLength()) {
        $('stored-cvc-error').textContent = 'Enter the ' + storedCvcLength() + '-digit security code.';
        storedCvc.setAttribute('aria-invalid', 'true');
        storedCvc.focus();
        return;
      }
      body.security_code = code;
    }
    confirmButton.disabled = true;
    confirmButton.textContent = 'Paying…';
    postToSession('/stored-card', body).then(function (answer) {
      storedCvc.value = '';
      if (answer.status === 201 || answer.json.code === 'checkout_session_already_used') return poll(0);
      if (answer.json.code === 'checkout_session_expired') return finishExpired();
      if (answer.json.code === 'checkout_session_canceled') return finishCanceled();
      confirmButton.disabled = false;
      confirmButton.textContent = 'Pay ' + formatAmount(session.amount, session.currency);
      if (answer.json.field === 'security_code') $('stored-cvc-error').textContent = answer.json.detail;
      else $('stored-error').textContent = answer.json.detail || 'The payment could not be started.';
    }).catch(function () {
      confirmButton.disabled = false;
      $('stored-error').textContent = 'Network problem; please try again.';
    });
  });

  // The merchant sends the consumer here as soon as the payment is created; the session reaches the
  // vault by event a moment later. The vault holds a read of an unknown session for up to a second
  // while it waits for the session, so a few more reads cover a few seconds.
  function load(attempt) {
    fetch('/sessions/' + encodeURIComponent(sessionId) + '/status', { headers: { Accept: 'application/json' } })
      .then(function (r) { return r.json().then(function (json) { return { status: r.status, json: json }; }); })
      .then(function (answer) {
        if (answer.status === 404 && attempt < 4) return setTimeout(function () { load(attempt + 1); }, 250);
        if (answer.status !== 200) { notice.textContent = 'This payment link is not valid.'; return; }
        session = answer.json;
        learnOrigins(session);
        $('amount').textContent = formatAmount(session.amount, session.currency);
        if (session.state === 'expired') return finishExpired();
        if (session.state === 'canceled') return finishCanceled();
        if (session.state === 'completed') return poll(0);
        if (session.stored_card) {
          showStoredCard();
          return post({ type: 'vaultline.checkout.resize', height: document.body.scrollHeight });
        }
        notice.textContent = 'Enter your card details. They are sent securely and never shared with the shop.';
        pay.textContent = 'Pay ' + formatAmount(session.amount, session.currency);
        form.hidden = false;
        inputs.number.focus();
        post({ type: 'vaultline.checkout.resize', height: document.body.scrollHeight });
      })
      .catch(function () { notice.textContent = 'The payment page could not load; please reload.'; });
  }
  load(0);
})();
