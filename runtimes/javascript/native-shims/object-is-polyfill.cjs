module.exports = () => Object.is;
