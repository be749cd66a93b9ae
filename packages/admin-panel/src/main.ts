const app = document.querySelector<HTMLElement>('#app');
if (app) app.textContent = location.pathname.endsWith('/login') ? 'Admin login' : 'Admin panel';
