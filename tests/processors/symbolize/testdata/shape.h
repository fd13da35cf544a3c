#pragma once
namespace shape {
double area_sum(int n);
}
