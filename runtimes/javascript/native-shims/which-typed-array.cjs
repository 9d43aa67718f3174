module.exports = (value) => (ArrayBuffer.isView(value) && !(value instanceof DataView) ? value[Symbol.toStringTag] : false);
