/* Brand detection while typing; mirrors services/vault/src/domain/card/card-scheme.ts. */
(function (global) {
  'use strict';
  var RULES = [
    ['AMEX', [['34'], ['37']], [15], 4],
    ['MAESTRO', [['5018'], ['5020'], ['5038'], ['5893'], ['6304'], ['6759'], ['6761', '6763']], range(12, 19), 3],
    ['MASTERCARD', [['51', '55'], ['2221', '2720']], [16], 3],
    ['VISA', [['4']], [13, 16, 19], 3],
    ['DINERS', [['300', '305'], ['3095'], ['36'], ['38', '39']], range(14, 19), 3],
    ['JCB', [['3528', '3589']], range(16, 19), 3],
    ['DISCOVER', [['6011'], ['644', '649'], ['65']], range(16, 19), 3],
    ['UNIONPAY', [['62'], ['81']], range(16, 19), 3]
  ];
  var LABELS = { VISA: 'Visa', MASTERCARD: 'Mastercard', AMEX: 'American Express', DISCOVER: 'Discover', JCB: 'JCB',
    DINERS: 'Diners Club', UNIONPAY: 'UnionPay', MAESTRO: 'Maestro', UNKNOWN: '' };
  function range(a, b) { var out = []; for (var i = a; i <= b; i++) out.push(i); return out; }
  function detect(digits) {
    for (var i = 0; i < RULES.length; i++) {
      var rule = RULES[i];
      for (var j = 0; j < rule[1].length; j++) {
        var low = rule[1][j][0], high = rule[1][j][1] || low;
        if (digits.length < low.length) continue;
        var prefix = digits.slice(0, low.length);
        if (prefix >= low && prefix <= high) return { scheme: rule[0], lengths: rule[2], cvcLengths: [rule[3]], label: LABELS[rule[0]] };
      }
    }
    return { scheme: 'UNKNOWN', lengths: range(12, 19), cvcLengths: [3, 4], label: '' };
  }
  function luhn(digits) {
    var sum = 0, dbl = false;
    for (var i = digits.length - 1; i >= 0; i--) {
      var d = digits.charCodeAt(i) - 48;
      if (dbl) { d *= 2; if (d > 9) d -= 9; }
      sum += d; dbl = !dbl;
    }
    return digits.length > 0 && sum % 10 === 0;
  }
  global.CardBrand = { detect: detect, luhn: luhn };
})(window);
