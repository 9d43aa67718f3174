module.exports = Object.is;
