/*
 * The hosted card form. Card data goes only to this origin's /sessions/{id}/card (a stored card's security
 * code to /sessions/{id}/stored-card), never into an address. 3-D Secure: when the bank asks, the page sends
 * the consumer to /checkout/{id}/authenticate (which takes them to the bank), and the bank sends them back
 * to /checkout/{id}/return, which brings them here again. A card that is declined (or whose challenge
 * fails) while the session is open brings the form back for another card (the session opens again on
 * payment.attempt_failed); "Return to the shop" then ends the session (/sessions/{id}/abandon).
 */
(function () {
  'use strict';
  var parts = location.pathname.split('/');
  var sessionId = decodeURIComponent(parts[2] || '');
  var query = new URLSearchParams(location.search);
  var embedded = query.get('embedded') === '1';
  // Who may hear the page: the session's allowed origins, from the server, never from the URL (anyone
  // can write a query string) and never '*'. Until the status arrives, nobody.
  var parentOrigins = [];

  var $ = function (id) {
    return document.getElementById(id);
  };
  var form = $('card-form'),
    notice = $('notice'),
    pay = $('pay');
  var inputs = { number: $('number'), expiry: $('expiry'), cvc: $('cvc'), name: $('name') };
  var session = null;
  var storedForm = $('stored-form'),
    confirmButton = $('confirm'),
    storedCvc = $('stored-cvc');
  var leave = $('leave');
  // Whether the form offers "Return to the shop" (after a failed card, with the shop's address, not in the SDK's iframe).
  var leaveOffered = false;

  // The language: the browser's first known one until the session names its own (the shop's `locale`).
  var speech = CheckoutMessages.choose(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
  var t = CheckoutMessages.translator(speech.language);

  function speak(choice) {
    speech = choice;
    t = CheckoutMessages.translator(choice.language);
    document.documentElement.lang = choice.language;
    document.title = t('documentTitle');
    Array.prototype.forEach.call(document.querySelectorAll('[data-text]'), function (el) {
      el.textContent = t(el.getAttribute('data-text'));
    });
    inputs.expiry.placeholder = t('expiryPlaceholder');
  }
  speak(speech);
  notice.textContent = t('loading');

  /** Minor units in major units, exactly (string arithmetic, no division): 150000 with exponent 2 → "1500.00". */
  function majorUnits(minor, exponent) {
    var digits = String(Math.abs(minor));
    while (digits.length <= exponent) digits = '0' + digits;
    return (minor < 0 ? '-' : '') + (exponent > 0 ? digits.slice(0, -exponent) + '.' + digits.slice(-exponent) : digits);
  }
  /**
   * The amount with the server's exponent for the currency (the session's currency_exponent, ISO 4217), never
   * Intl's fraction digits, which ICU rounds for cash: HUF 150000 is HUF 1,500.00, not HUF 150,000.
   */
  function formatAmount(minor, currency, exponent) {
    var major = majorUnits(minor, exponent);
    try {
      return new Intl.NumberFormat(speech.locale, {
        style: 'currency',
        currency: currency,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      }).format(major);
    } catch {
      return major + ' ' + currency;
    }
  }
  function sessionAmount() {
    return formatAmount(session.amount, session.currency, session.currency_exponent);
  }
  function payLabel() {
    return t('payAmount', { amount: sessionAmount() });
  }

  /** The shop's look: its name and logo at the top, its colour on the button (text black or white, as the server chose for contrast). */
  function showMerchant(merchant) {
    if (!merchant) return;
    var root = document.documentElement.style;
    if (merchant.brand_color && /^#[0-9a-f]{6}$/i.test(merchant.brand_color)) {
      root.setProperty('--brand', merchant.brand_color);
      root.setProperty('--on-brand', merchant.button_text_color === '#000000' ? '#000000' : '#ffffff');
    }
    var name = merchant.display_name || '';
    $('merchant-name').textContent = name;
    var logo = $('merchant-logo');
    if (merchant.logo_url) {
      // Beside the name the logo is decoration; alone it names the shop.
      logo.alt = name ? '' : t('shopLogoAlt');
      logo.onerror = function () {
        logo.hidden = true;
        if (!name) $('merchant').hidden = true;
      };
      logo.src = merchant.logo_url;
      logo.hidden = false;
    }
    $('merchant').hidden = !name && !merchant.logo_url;
    showTopline();
  }

  /** The name (and logo) at the left, TEST MODE at the right for a test session; the row goes when both are empty. */
  function showTopline() {
    $('test-mode').hidden = !session || session.livemode !== false;
    $('topline').hidden = $('merchant').hidden && $('test-mode').hidden;
  }

  function digitsOf(value) {
    return value.replace(/\D/g, '');
  }

  function setError(field, message) {
    var input = inputs[field];
    var out = $(field + '-error');
    if (out) out.textContent = message || '';
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  function parseExpiry(value) {
    var m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
    if (!m) return null;
    var month = Number(m[1]),
      year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    return { month: month, year: year };
  }

  function securityCodeMessage(lengths) {
    return t('securityCodeLength', { digits: lengths.length > 1 ? t('digitsOr', { a: lengths[0], b: lengths[1] }) : lengths[0] });
  }

  function validate(field) {
    var digits = digitsOf(inputs.number.value);
    var brand = CardBrand.detect(digits);
    if (field === 'number') {
      if (!digits) return t('numberMissing');
      if (brand.lengths.indexOf(digits.length) < 0 || !CardBrand.luhn(digits)) return t('numberInvalid');
    }
    if (field === 'expiry') {
      var e = parseExpiry(inputs.expiry.value);
      if (!e || e.month < 1 || e.month > 12) return t('expiryFormat');
      var now = new Date();
      if (e.year < now.getFullYear() || (e.year === now.getFullYear() && e.month < now.getMonth() + 1)) return t('expiryPast');
    }
    if (field === 'cvc') {
      var cvc = inputs.cvc.value.trim();
      if (!/^\d+$/.test(cvc) || brand.cvcLengths.indexOf(cvc.length) < 0) return securityCodeMessage(brand.cvcLengths);
    }
    if (field === 'name' && inputs.name.value.trim().length > 100) return t('nameTooLong');
    return '';
  }

  function showMark(holder, scheme) {
    holder.textContent = '';
    holder.setAttribute('data-brand', scheme);
    if (scheme !== 'UNKNOWN') holder.appendChild(CardBrand.mark(scheme));
  }

  function showBrand() {
    var digits = digitsOf(inputs.number.value);
    var brand = CardBrand.detect(digits);
    var el = $('brand');
    el.textContent = digits.length >= 1 ? brand.label : '';
    el.setAttribute('data-brand', brand.scheme);
    showMark($('brand-mark'), digits.length >= 1 ? brand.scheme : 'UNKNOWN');
    // Group digits as typed: 4-6-5 for American Express, groups of four otherwise.
    var groups = brand.scheme === 'AMEX' ? [4, 6, 5] : [4, 4, 4, 4, 3];
    var out = [],
      i = 0;
    for (var g = 0; g < groups.length && i < digits.length; g++) {
      out.push(digits.slice(i, i + groups[g]));
      i += groups[g];
    }
    var formatted = out.join(' ');
    if (formatted !== inputs.number.value) inputs.number.value = formatted;
    inputs.cvc.maxLength = brand.scheme === 'AMEX' || brand.scheme === 'UNKNOWN' ? 4 : 3;
  }

  Object.keys(inputs).forEach(function (field) {
    inputs[field].addEventListener('blur', function (event) {
      // Not when leaving for the pay button: an error shown now would push the button down between the
      // press and the release, and the click would be lost. The submission checks every field anyway.
      if (event.relatedTarget === pay) return;
      if (inputs[field].value) setError(field, validate(field));
    });
    inputs[field].addEventListener('input', function () {
      if (field === 'number') showBrand();
      if (inputs[field].getAttribute('aria-invalid') === 'true') setError(field, validate(field));
    });
  });

  // One post per allowed origin: the browser delivers it only if the parent is on that origin, so a
  // parent on any other origin hears nothing (and frame-ancestors keeps it from framing the page at all).
  function post(message) {
    if (!embedded || window.parent === window) return;
    parentOrigins.forEach(function (origin) {
      window.parent.postMessage(message, origin);
    });
  }
  function resized() {
    post({ type: 'vaultline.checkout.resize', height: document.body.scrollHeight });
  }

  function learnOrigins(status) {
    if (Array.isArray(status.allowed_origins))
      parentOrigins = status.allowed_origins.filter(function (o) {
        return typeof o === 'string' && o !== '*';
      });
  }

  /** "Mastercard •••• 4444": the brand and the last four digits, all a consumer needs to recognise the card. */
  function cardShown(status) {
    var brand = status.scheme ? CardBrand.label(status.scheme) || status.scheme : '';
    var last4 = status.masked_account_number ? '•••• ' + status.masked_account_number.slice(-4) : '';
    return (brand + ' ' + last4).trim();
  }
  function paidWith(status) {
    return cardShown(status) ? t('paidWith', { card: cardShown(status) }) : '';
  }
  function failureText(status) {
    return status.failure_reason && CheckoutMessages.has(status.failure_reason) ? t(status.failure_reason) : t('failureFallback');
  }

  /*
   * The one place that says what the consumer reads for each payment status: the outcome (its colour and
   * icon), the title, the detail, and whether the page stops polling. A new status (canceled, a 3-D Secure
   * challenge) is one more line here and its words in checkout-messages.js.
   */
  var STATES = {
    processing: {
      outcome: 'pending',
      title: 'processingTitle',
      detail: function () {
        return t('processingDetail');
      },
      final: false,
    },
    // 3-D Secure, while the payment stays processing: the bank asks (the page takes the consumer there), then the consumer is back.
    authentication_required: {
      outcome: 'pending',
      title: 'authenticatingTitle',
      detail: function () {
        return t('authenticatingDetail');
      },
      final: false,
      leave: true,
    },
    authentication_returned: {
      outcome: 'pending',
      title: 'verifyingTitle',
      detail: function () {
        return t('verifyingDetail');
      },
      final: false,
    },
    capturing: {
      outcome: 'pending',
      title: 'processingTitle',
      detail: function () {
        return t('processingDetail');
      },
      final: false,
    },
    authorized: { outcome: 'success', title: 'authorizedTitle', detail: paidWith, final: true },
    captured: { outcome: 'success', title: 'capturedTitle', detail: paidWith, final: true },
    failed: { outcome: 'failure', title: 'failedTitle', detail: failureText, final: true },
    canceled: {
      outcome: 'failure',
      title: 'canceledTitle',
      detail: function () {
        return t('canceledDetail');
      },
      final: true,
    },
  };
  var UNKNOWN_STATE = STATES.processing;
  function stateOf(status) {
    if (status.payment_status === 'processing' && status.authentication) return STATES['authentication_' + status.authentication.state] || UNKNOWN_STATE;
    return STATES[status.payment_status] || UNKNOWN_STATE;
  }

  // To the bank, through this origin's route (it knows the bank's address and form; the page never does).
  function leaveForAuthentication() {
    location.assign('/checkout/' + encodeURIComponent(sessionId) + '/authenticate');
  }

  function showResult(status) {
    var state = stateOf(status);
    form.hidden = true;
    storedForm.hidden = true;
    notice.textContent = '';
    var result = $('result');
    var title = $('result-title');
    var wasShowing = !result.hidden && result.getAttribute('data-outcome') === state.outcome && title.textContent === t(state.title);
    result.hidden = false;
    result.setAttribute('data-outcome', state.outcome);
    // Nothing is left to pay here: the heading names the amount only.
    if (session) $('amount').textContent = sessionAmount();
    title.textContent = t(state.title);
    $('result-detail').textContent = state.detail(status) || '';
    if (!wasShowing) title.focus();
    resized();
  }

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
    } catch {
      return null;
    }
  }

  function finish(status) {
    learnOrigins(status);
    showResult(status);
    post({
      type: 'vaultline.checkout.complete',
      sessionId: sessionId,
      paymentId: status.payment_id,
      status: status.payment_status,
      failureReason: status.failure_reason || null,
    });
    var target = returnTarget(status);
    if (target) {
      var link = $('return-link');
      link.href = target;
      link.hidden = false;
      // Only a paid order goes back on its own: after a failure the consumer chooses (the link stays).
      if (!embedded && stateOf(status).outcome === 'success') {
        $('returning').hidden = false;
        setTimeout(function () {
          location.assign(target);
        }, 3000);
      }
      resized();
    }
  }

  /** "•••• 0002": the last four digits of a masked number, all a consumer needs to recognise the card. */
  function lastFour(masked) {
    return masked ? '•••• ' + String(masked).slice(-4) : '';
  }

  /**
   * The card form, empty, for the first card or for another one after a failed card (`failed`: which card
   * and why, announced by the alert). With the shop's address, "Return to the shop" gives up instead.
   */
  function showCardForm(failed) {
    $('result').hidden = true;
    storedForm.hidden = true;
    form.hidden = false;
    $('form-error').textContent = '';
    Object.keys(inputs).forEach(function (field) {
      setError(field, '');
    });
    pay.disabled = false;
    pay.textContent = payLabel();
    $('amount').textContent = payLabel();
    var box = $('attempt-failed');
    if (failed) {
      Object.keys(inputs).forEach(function (field) {
        inputs[field].value = '';
      });
      showBrand();
      $('attempt-title').textContent = t('attemptFailedTitle', { card: lastFour(failed.masked_account_number) || '' }).replace(/\s+/g, ' ');
      $('attempt-detail').textContent = failureText(failed) + ' ' + t('anotherCard');
      box.hidden = false;
      notice.textContent = '';
      leaveOffered = Boolean(session && session.return_url) && !embedded;
      leave.hidden = !leaveOffered;
      post({
        type: 'vaultline.checkout.attempt_failed',
        sessionId: sessionId,
        paymentId: session.payment_id,
        attempt: failed.number,
        failureReason: failed.failure_reason,
      });
    } else {
      box.hidden = true;
      leaveOffered = false;
      leave.hidden = true;
      notice.textContent = t('enterCard');
    }
    inputs.number.focus();
    resized();
  }

  // The consumer gives up after a failed card: the session ends (its payment fails with the card's reason), then the shop.
  leave.addEventListener('click', function () {
    leave.disabled = true;
    pay.disabled = true;
    postToSession('/abandon', {})
      .then(function (answer) {
        if (answer.status !== 200) return poll(0);
        var target = returnTarget(Object.assign({}, session, { payment_status: 'failed' }));
        if (target) location.assign(target);
      })
      .catch(function () {
        leave.disabled = false;
        pay.disabled = false;
        $('form-error').textContent = t('network');
      });
  });

  /**
   * Over a limit the server says how long to wait (`retry_after`): the button waits that long, the message
   * counts down, then the consumer may try again.
   */
  function waitBeforeRetry(button, message, seconds) {
    var left = Math.max(1, Math.round(seconds));
    button.disabled = true;
    function tick() {
      if (left <= 0) {
        message.textContent = '';
        button.disabled = false;
        return;
      }
      message.textContent = t('tooManyAttemptsWait', { seconds: left });
      left -= 1;
      setTimeout(tick, 1000);
    }
    tick();
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
      .then(function (r) {
        return r.json();
      })
      .then(function (status) {
        if (stateOf(status).final) return finish(status);
        // The card failed and the payment takes another: the session is open again.
        if (status.state === 'open' && status.last_failed_attempt && !status.stored_card) {
          session = Object.assign(session || {}, status, { merchant: (session && session.merchant) || status.merchant });
          return showCardForm(status.last_failed_attempt);
        }
        showResult(status);
        if (stateOf(status).leave) return leaveForAuthentication();
        if (attempt < 120)
          setTimeout(
            function () {
              poll(attempt + 1);
            },
            attempt < 10 ? 500 : 1500,
          );
      })
      .catch(function () {
        if (attempt < 120)
          setTimeout(function () {
            poll(attempt + 1);
          }, 2000);
      });
  }

  /** What 3-D Secure 2 asks of the browser (the vault adds the Accept header and the address it saw). */
  function browserData() {
    var java = false;
    try {
      java = typeof navigator.javaEnabled === 'function' && navigator.javaEnabled();
    } catch {
      java = false;
    }
    return {
      user_agent: String(navigator.userAgent || '').slice(0, 1024),
      language: String(navigator.language || 'en').slice(0, 35),
      screen_width: Math.round(screen.width || 0),
      screen_height: Math.round(screen.height || 0),
      color_depth: Math.round(screen.colorDepth || 24),
      time_zone_offset: new Date().getTimezoneOffset(),
      java_enabled: Boolean(java),
    };
  }

  /** POSTs JSON to this session's route on this origin; resolves with the status and the JSON answer. */
  function postToSession(route, body) {
    return fetch('/sessions/' + encodeURIComponent(sessionId) + route, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    }).then(function (r) {
      return r.json().then(function (json) {
        return { status: r.status, json: json };
      });
    });
  }

  /** A refusal the page can word itself (the server's detail is English): by the field it names, else by its code. */
  var FIELD_OF = { number: 'number', exp_month: 'expiry', exp_year: 'expiry', cvc: 'cvc', name: 'name' };
  var FIELD_TEXT = { number: 'numberInvalid', expiry: 'expiryInvalid', name: 'nameInvalid' };
  function refusalText(json) {
    if (json.code === 'too_many_attempts')
      return typeof json.retry_after === 'number' ? t('tooManyAttemptsWait', { seconds: json.retry_after }) : t('tooManyAttempts');
    return t('startFailed');
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
    if (firstBad) {
      firstBad.focus();
      return;
    }
    var expiry = parseExpiry(inputs.expiry.value);
    var body = {
      card: {
        number: digitsOf(inputs.number.value),
        exp_month: String(expiry.month),
        exp_year: String(expiry.year),
        cvc: inputs.cvc.value.trim(),
        name: inputs.name.value.trim() || undefined,
      },
      browser: browserData(),
    };
    pay.disabled = true;
    pay.textContent = t('paying');
    $('attempt-failed').hidden = true;
    leave.hidden = true;
    postToSession('/card', body)
      .then(function (answer) {
        inputs.cvc.value = '';
        if (answer.status === 201 || answer.json.code === 'checkout_session_already_used' || answer.json.code === 'checkout_session_abandoned') return poll(0);
        if (answer.json.code === 'checkout_session_expired') return finishExpired();
        if (answer.json.code === 'checkout_session_canceled') return finishCanceled();
        pay.disabled = false;
        pay.textContent = payLabel();
        // Refused before any card was decided: the way back stays offered (waiting out a limit is the consumer's choice).
        leave.hidden = !leaveOffered;
        if (answer.json.code === 'too_many_attempts' && typeof answer.json.retry_after === 'number')
          return waitBeforeRetry(pay, $('form-error'), answer.json.retry_after);
        var field = FIELD_OF[(answer.json.field || '').replace(/^card\./, '')];
        if (field) {
          setError(field, field === 'cvc' ? securityCodeMessage(CardBrand.detect(digitsOf(inputs.number.value)).cvcLengths) : t(FIELD_TEXT[field]));
          inputs[field].focus();
        } else $('form-error').textContent = refusalText(answer.json);
      })
      .catch(function () {
        pay.disabled = false;
        pay.textContent = payLabel();
        leave.hidden = !leaveOffered;
        $('form-error').textContent = t('network');
      });
  });

  // A stored card: only its masked number, expiry and name are shown; the security code, when the
  // payment needs it, goes to this origin's /sessions/{id}/stored-card like a new card's would.
  function storedCvcLength() {
    return session.stored_card.scheme === 'AMEX' ? 4 : 3;
  }

  function showStoredCard() {
    var card = session.stored_card;
    var expiry = String(card.expiry_month).padStart(2, '0') + '/' + String(card.expiry_year).slice(-2);
    var shown = cardShown({ scheme: card.scheme, masked_account_number: card.masked_account_number });
    $('stored-card').textContent = t('storedCard', { card: shown, expiry: expiry }) + (card.cardholder_name ? ', ' + card.cardholder_name : '');
    showMark($('stored-mark'), card.scheme || 'UNKNOWN');
    $('stored-cvc-field').hidden = !card.security_code_required;
    storedCvc.maxLength = storedCvcLength();
    notice.textContent = card.security_code_required ? t('storedNoticeCode') : t('storedNotice');
    confirmButton.textContent = payLabel();
    storedForm.hidden = false;
    (card.security_code_required ? storedCvc : confirmButton).focus();
  }

  storedCvc.addEventListener('input', function () {
    if (storedCvc.getAttribute('aria-invalid') !== 'true' || storedCvc.value.trim().length !== storedCvcLength()) return;
    storedCvc.setAttribute('aria-invalid', 'false');
    $('stored-cvc-error').textContent = '';
  });

  storedForm.addEventListener('submit', function (event) {
    event.preventDefault();
    $('stored-error').textContent = '';
    var body = { browser: browserData() };
    if (session.stored_card.security_code_required) {
      var code = storedCvc.value.trim();
      if (!/^\d+$/.test(code) || code.length !== storedCvcLength()) {
        $('stored-cvc-error').textContent = securityCodeMessage([storedCvcLength()]);
        storedCvc.setAttribute('aria-invalid', 'true');
        storedCvc.focus();
        return;
      }
      body.security_code = code;
    }
    confirmButton.disabled = true;
    confirmButton.textContent = t('paying');
    postToSession('/stored-card', body)
      .then(function (answer) {
        storedCvc.value = '';
        if (answer.status === 201 || answer.json.code === 'checkout_session_already_used') return poll(0);
        if (answer.json.code === 'checkout_session_expired') return finishExpired();
        if (answer.json.code === 'checkout_session_canceled') return finishCanceled();
        confirmButton.disabled = false;
        confirmButton.textContent = payLabel();
        if (answer.json.code === 'too_many_attempts' && typeof answer.json.retry_after === 'number')
          return waitBeforeRetry(confirmButton, $('stored-error'), answer.json.retry_after);
        if (answer.json.field === 'security_code') $('stored-cvc-error').textContent = securityCodeMessage([storedCvcLength()]);
        else $('stored-error').textContent = refusalText(answer.json);
      })
      .catch(function () {
        confirmButton.disabled = false;
        confirmButton.textContent = payLabel();
        $('stored-error').textContent = t('network');
      });
  });

  // The merchant sends the consumer here as soon as the payment is created; the session reaches the
  // vault by event a moment later (later still when the bus is busy or a broker is being restarted). The
  // vault holds a read of an unknown session for up to a second while it waits for the session; the page
  // reads again for about 15 seconds (LOAD_ATTEMPTS) before it calls the link invalid, and a read that
  // fails on the network is tried again the same way.
  var LOAD_ATTEMPTS = 12;
  function loadAgain(attempt) {
    if (attempt + 1 >= LOAD_ATTEMPTS) return false;
    setTimeout(
      function () {
        load(attempt + 1);
      },
      attempt < 4 ? 250 : 1000,
    );
    return true;
  }
  function load(attempt) {
    fetch('/sessions/' + encodeURIComponent(sessionId) + '/status', { headers: { Accept: 'application/json' } })
      .then(function (r) {
        return r.json().then(function (json) {
          return { status: r.status, json: json };
        });
      })
      .then(function (answer) {
        if (answer.status === 404 && loadAgain(attempt)) return;
        if (answer.status !== 200) {
          notice.textContent = t('invalidLink');
          return;
        }
        session = answer.json;
        learnOrigins(session);
        if (session.locale) speak(CheckoutMessages.choose([session.locale]));
        showMerchant(session.merchant);
        $('amount').textContent = payLabel();
        if (session.description) {
          $('description').textContent = session.description;
          $('description').hidden = false;
        }
        showTopline();
        if (session.state === 'expired') return finishExpired();
        if (session.state === 'canceled') return finishCanceled();
        if (session.state === 'completed' || session.state === 'abandoned') return poll(0);
        if (session.stored_card) {
          showStoredCard();
          return resized();
        }
        showCardForm(session.last_failed_attempt);
      })
      .catch(function () {
        if (!loadAgain(attempt)) notice.textContent = t('loadFailed');
      });
  }
  load(0);
})();
