/*
 * Vaultline checkout SDK.
 *   <script src="{base_url}/sdk/v1/checkout.js"></script>
 *   Checkout.mount('#pay', { sessionId: '…', onComplete: function (result) { … }, onAttemptFailed: function (attempt) { … } });
 * onComplete: the payment's outcome; onAttemptFailed (optional): a card failed and the form takes another.
 * The card form runs in an iframe on the vault's origin: card data never touches the merchant's page.
 */
(function (global) {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? new URL(script.src).origin : global.location.origin;

  function mount(selector, options) {
    var host = typeof selector === 'string' ? document.querySelector(selector) : selector;
    if (!host) throw new Error('Checkout.mount: no element matches ' + selector);
    if (!options || typeof options.sessionId !== 'string' || !options.sessionId) throw new Error('Checkout.mount: options.sessionId is required');
    var iframe = document.createElement('iframe');
    // The page posts only to the origins the payment allowed (allowed_origins, or return_url's origin).
    iframe.src = base + '/checkout/' + encodeURIComponent(options.sessionId) + '?embedded=1';
    iframe.title = 'Secure card payment';
    iframe.setAttribute('allow', 'payment');
    iframe.style.cssText = 'width:100%;min-height:460px;border:0;display:block;';
    host.appendChild(iframe);

    function onMessage(event) {
      if (event.origin !== base || event.source !== iframe.contentWindow) return;
      var data = event.data || {};
      if (data.type === 'vaultline.checkout.resize' && data.height > 0) iframe.style.height = Math.ceil(data.height) + 'px';
      if (data.type === 'vaultline.checkout.complete' && typeof options.onComplete === 'function') {
        options.onComplete({ sessionId: data.sessionId, paymentId: data.paymentId, status: data.status, failureReason: data.failureReason || null });
      }
      if (data.type === 'vaultline.checkout.attempt_failed' && typeof options.onAttemptFailed === 'function') {
        options.onAttemptFailed({ sessionId: data.sessionId, paymentId: data.paymentId, attempt: data.attempt, failureReason: data.failureReason || null });
      }
    }
    global.addEventListener('message', onMessage);
    return {
      iframe: iframe,
      unmount: function () {
        global.removeEventListener('message', onMessage);
        iframe.remove();
      },
    };
  }

  global.Checkout = { mount: mount, version: '1' };
})(window);
