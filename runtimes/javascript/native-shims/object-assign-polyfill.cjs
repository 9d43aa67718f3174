module.exports = () => Object.assign;
