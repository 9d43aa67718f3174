module.exports = Number.isNaN;
