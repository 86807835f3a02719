/* Brand detection while typing; mirrors services/vault/src/domain/card/card-scheme.ts. */
(function (global) {
  'use strict';
  var RULES = [
    ['AMEX', [['34'], ['37']], [15], 4],
    ['MAESTRO', [['5018'], ['5020'], ['5038'], ['5893'], ['6304'], ['6759'], ['6761', '6763']], range(12, 19), 3],
    [
      'MASTERCARD',
      [
        ['51', '55'],
        ['2221', '2720'],
      ],
      [16],
      3,
    ],
    ['VISA', [['4']], [13, 16, 19], 3],
    ['DINERS', [['300', '305'], ['3095'], ['36'], ['38', '39']], range(14, 19), 3],
    ['JCB', [['3528', '3589']], range(16, 19), 3],
    ['DISCOVER', [['6011'], ['644', '649'], ['65']], range(16, 19), 3],
    ['UNIONPAY', [['62'], ['81']], range(16, 19), 3],
  ];
  var LABELS = {
    VISA: 'Visa',
    MASTERCARD: 'Mastercard',
    AMEX: 'American Express',
    DISCOVER: 'Discover',
    JCB: 'JCB',
    DINERS: 'Diners Club',
    UNIONPAY: 'UnionPay',
    MAESTRO: 'Maestro',
    UNKNOWN: '',
  };
  function range(a, b) {
    var out = [];
    for (var i = a; i <= b; i++) out.push(i);
    return out;
  }
  function detect(digits) {
    for (var i = 0; i < RULES.length; i++) {
      var rule = RULES[i];
      for (var j = 0; j < rule[1].length; j++) {
        var low = rule[1][j][0],
          high = rule[1][j][1] || low;
        if (digits.length < low.length) continue;
        var prefix = digits.slice(0, low.length);
        if (prefix >= low && prefix <= high) return { scheme: rule[0], lengths: rule[2], cvcLengths: [rule[3]], label: LABELS[rule[0]] };
      }
    }
    return { scheme: 'UNKNOWN', lengths: range(12, 19), cvcLengths: [3, 4], label: '' };
  }
  function luhn(digits) {
    var sum = 0,
      dbl = false;
    for (var i = digits.length - 1; i >= 0; i--) {
      var d = digits.charCodeAt(i) - 48;
      if (dbl) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      dbl = !dbl;
    }
    return digits.length > 0 && sum % 10 === 0;
  }
  /*
   * The brand's mark, drawn here (no image requests, nothing a CSP must allow): a 40×26 card face in the
   * brand's colours. Decorative: the page names the brand in words beside it for screen readers.
   */
  var SVG = 'http://www.w3.org/2000/svg';
  function node(name, attributes, text) {
    var el = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) {
      el.setAttribute(key, attributes[key]);
    });
    if (text) el.textContent = text;
    return el;
  }
  function word(text, x, y, size, fill, extra) {
    var attributes = {
      x: x,
      y: y,
      'font-family': 'Arial, Helvetica, sans-serif',
      'font-size': size,
      'font-weight': '700',
      fill: fill,
      'text-anchor': 'middle',
    };
    Object.keys(extra || {}).forEach(function (key) {
      attributes[key] = extra[key];
    });
    return node('text', attributes, text);
  }
  function circle(cx, fill, opacity) {
    return node('circle', { cx: cx, cy: 13, r: 7.5, fill: fill, 'fill-opacity': opacity || 1 });
  }
  var FACES = {
    VISA: function () {
      return [
        node('rect', { width: 40, height: 26, rx: 4, fill: '#1a1f71' }),
        word('VISA', 20, 17.5, 11, '#ffffff', { 'font-style': 'italic', 'letter-spacing': '.5' }),
      ];
    },
    MASTERCARD: function () {
      return [node('rect', { width: 40, height: 26, rx: 4, fill: '#252525' }), circle(16, '#eb001b'), circle(24, '#f79e1b', 0.85)];
    },
    MAESTRO: function () {
      return [node('rect', { width: 40, height: 26, rx: 4, fill: '#ffffff', stroke: '#c7ccd3' }), circle(16, '#0099df'), circle(24, '#eb001b', 0.85)];
    },
    AMEX: function () {
      return [node('rect', { width: 40, height: 26, rx: 4, fill: '#2e77bc' }), word('AMEX', 20, 17, 10, '#ffffff', { 'letter-spacing': '.5' })];
    },
    DISCOVER: function () {
      return [
        node('rect', { width: 40, height: 26, rx: 4, fill: '#ffffff', stroke: '#c7ccd3' }),
        word('DISC', 13, 16, 7, '#231f20'),
        node('circle', { cx: 24.5, cy: 13.5, r: 4, fill: '#f48120' }),
        word('VER', 33, 16, 7, '#231f20'),
      ];
    },
    JCB: function () {
      return [
        node('rect', { width: 40, height: 26, rx: 4, fill: '#ffffff', stroke: '#c7ccd3' }),
        node('rect', { x: 7, y: 4, width: 8, height: 18, rx: 2.5, fill: '#0e4c96' }),
        node('rect', { x: 16, y: 4, width: 8, height: 18, rx: 2.5, fill: '#e21836' }),
        node('rect', { x: 25, y: 4, width: 8, height: 18, rx: 2.5, fill: '#007b40' }),
        word('J', 11, 16.5, 8, '#ffffff'),
        word('C', 20, 16.5, 8, '#ffffff'),
        word('B', 29, 16.5, 8, '#ffffff'),
      ];
    },
    DINERS: function () {
      return [
        node('rect', { width: 40, height: 26, rx: 4, fill: '#ffffff', stroke: '#c7ccd3' }),
        node('circle', { cx: 20, cy: 13, r: 8, fill: '#0079be' }),
        node('circle', { cx: 20, cy: 13, r: 5.5, fill: '#ffffff' }),
        node('rect', { x: 19, y: 7.5, width: 2, height: 11, fill: '#0079be' }),
      ];
    },
    UNIONPAY: function () {
      return [
        node('rect', { width: 40, height: 26, rx: 4, fill: '#ffffff', stroke: '#c7ccd3' }),
        node('path', { d: 'M7 4h9l-4 18H3z', fill: '#e21836' }),
        node('path', { d: 'M16 4h9l-4 18h-9z', fill: '#00447c' }),
        node('path', { d: 'M25 4h10l-4 18h-10z', fill: '#007b84' }),
      ];
    },
    UNKNOWN: function () {
      return [
        node('rect', { x: 0.5, y: 0.5, width: 39, height: 25, rx: 4, fill: '#ffffff', stroke: '#8a929c' }),
        node('rect', { x: 1, y: 6, width: 38, height: 4, fill: '#8a929c' }),
        node('rect', { x: 5, y: 16, width: 14, height: 3, rx: 1, fill: '#c7ccd3' }),
      ];
    },
  };
  function mark(scheme) {
    var svg = node('svg', { viewBox: '0 0 40 26', width: 40, height: 26, 'aria-hidden': 'true', focusable: 'false' });
    (FACES[scheme] || FACES.UNKNOWN)().forEach(function (child) {
      svg.appendChild(child);
    });
    return svg;
  }

  global.CardBrand = {
    detect: detect,
    luhn: luhn,
    mark: mark,
    label: function (scheme) {
      return LABELS[scheme] || '';
    },
  };
})(window);
