import { render } from 'preact';
import { DashboardApp } from './dashboard-app';
import './styles.css';

const root = document.getElementById('app');
if (root) render(<DashboardApp />, root);
