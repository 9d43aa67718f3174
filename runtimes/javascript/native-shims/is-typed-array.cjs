const whichTypedArray = require('./which-typed-array.cjs');
module.exports = (value) => Boolean(whichTypedArray(value));
