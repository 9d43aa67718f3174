module.exports = (value) => Object.prototype.toString.call(value) === '[object Arguments]';
