/* Posts the issuer's form at once (3-D Secure with method POST): the consumer goes to their bank's page. */
(function () {
  'use strict';
  var form = document.getElementById('issuer-form');
  if (form) form.submit();
})();
